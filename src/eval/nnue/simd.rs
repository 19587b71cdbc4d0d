//! Which vector instructions the network's kernels run on, decided in one place, and every
//! kernel whose form depends on it. Where the build targets a processor with AVX2 (`-C
//! target-cpu=native` on one that has it) the choice is made at compile time; the release
//! binaries are built for any x86-64, so there AVX2 is looked for at run time (the standard
//! library asks the processor once and keeps the answer), and the portable kernels, which give
//! the same sums, run where it is missing. The browser build uses WebAssembly's 128-bit SIMD
//! where it was compiled with it (a compile-time choice: a browser has no run-time one).
//!
//! The kernels are plain loops the compiler turns into vector code: [`widest!`] compiles a
//! kernel a second time for AVX2 and runs that copy where the processor has it, so the
//! accumulator and the refresh cache write their loops once and say nothing of instructions.

/// Whether this processor runs the AVX2 kernels.
#[inline]
pub(crate) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // True at compile time where the target has AVX2, asked of the processor otherwise.
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The kernels this process runs: `avx2`, `simd128` (the browser build) or `portable`.
pub fn kernels() -> &'static str {
    if avx2() {
        "avx2"
    } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        "simd128"
    } else {
        "portable"
    }
}

/// Defines `$name`, a function with `$kernel`'s parameters that runs `$kernel` compiled for
/// the widest vector instructions this processor has: a second copy of it, compiled for AVX2,
/// where the processor has AVX2. `$kernel` and what it calls must be `#[inline(always)]`, so
/// that the wider copy reaches their loops; the twin takes the slices as parameters of its
/// own, so the compiler knows they do not overlap.
macro_rules! widest {
    ($(#[$doc:meta])* $vis:vis fn $name:ident $(<$lane:ident>)? = $kernel:ident($($arg:ident: $ty:ty),* $(,)?)) => {
        $(#[$doc])*
        #[inline]
        $vis fn $name$(<$lane: $crate::eval::nnue::simd::Lane>)?($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn on_avx2$(<$lane: $crate::eval::nnue::simd::Lane>)?($($arg: $ty),*) {
                    $kernel($($arg),*)
                }
                if $crate::eval::nnue::simd::avx2() {
                    // SAFETY: `on_avx2` needs nothing but AVX2, which the processor has (just
                    // checked); it reads and writes only through its arguments.
                    return unsafe { on_avx2($($arg),*) };
                }
            }
            $kernel($($arg),*)
        }
    };
}
pub(super) use widest;

/// The integer of the accumulator's sums: `i16` for a net whose sums cannot leave its range
/// ([`Network::sums_fit_i16`](super::Network::sums_fit_i16)), which puts twice the lanes in
/// each vector (eight in WebAssembly's, sixteen in AVX2's) and halves the frames' memory, and
/// `i32` for any other net. Both give the same sums where `i16` is chosen: its arithmetic
/// wraps, and a sum that ends in range is exact whatever its steps passed through.
pub(crate) trait Lane: Copy + Default + Into<i32> + PartialEq + std::fmt::Debug {
    /// A weight or bias as a sum.
    fn from_weight(w: i16) -> Self;
    /// `self + w`.
    fn plus(self, w: i16) -> Self;
    /// `self - w`.
    fn minus(self, w: i16) -> Self;
    /// The sums as i16, where they are (for the browser build's own kernel).
    #[cfg_attr(
        not(all(target_arch = "wasm32", target_feature = "simd128")),
        allow(dead_code)
    )]
    fn narrow(sums: &[Self]) -> Option<&[i16]>;
}

impl Lane for i16 {
    #[inline(always)]
    fn from_weight(w: i16) -> i16 {
        w
    }
    #[inline(always)]
    fn plus(self, w: i16) -> i16 {
        self.wrapping_add(w)
    }
    #[inline(always)]
    fn minus(self, w: i16) -> i16 {
        self.wrapping_sub(w)
    }
    #[inline(always)]
    fn narrow(sums: &[i16]) -> Option<&[i16]> {
        Some(sums)
    }
}

impl Lane for i32 {
    #[inline(always)]
    fn from_weight(w: i16) -> i32 {
        i32::from(w)
    }
    #[inline(always)]
    fn plus(self, w: i16) -> i32 {
        self.wrapping_add(i32::from(w))
    }
    #[inline(always)]
    fn minus(self, w: i16) -> i32 {
        self.wrapping_sub(i32::from(w))
    }
    #[inline(always)]
    fn narrow(_: &[i32]) -> Option<&[i16]> {
        None
    }
}

/// Adds an input's column to a viewer's sums. A plain loop: the compiler makes it vector code,
/// AVX2's inside a [`widest!`] kernel, `simd128` in the browser build.
#[inline]
pub(super) fn add<L: Lane>(sums: &mut [L], column: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(column) {
        *s = s.plus(w);
    }
}

/// Takes an input's column from a viewer's sums (as [`add`]).
#[inline]
pub(super) fn sub<L: Lane>(sums: &mut [L], column: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(column) {
        *s = s.minus(w);
    }
}

/// `sum clamp(x, 0, CLIP)^2 * w`: the output layer's inner product, about a quarter of a
/// Heian search's instructions in its portable form. `CLIP` is at most 255, so that each term
/// fits an i32 (`255 * 255 * 32768` is 2 130 706 432, below 2^31). With wide i32 multiplies
/// (AVX2's eight lanes, WebAssembly's four) the terms are i32 products and only the sum is
/// i64, which cuts the instructions by three quarters (`docs/nnue.md`); without them (x86-64's
/// baseline) the i64 products compile best. Both forms give the same sum for every input.
#[inline]
pub(super) fn screlu_dot<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    const { assert!(CLIP as i64 * CLIP as i64 * 32768 < 1 << 31) };
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: `screlu_dot_avx2` needs nothing but AVX2, which the processor has (just
        // checked); it reads only through the two slices.
        return unsafe { screlu_dot_avx2::<L, CLIP>(acc, weights) };
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return screlu_dot_i32::<L, CLIP>(acc, weights);
    #[allow(unreachable_code)]
    screlu_dot_i64::<L, CLIP>(acc, weights)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    screlu_dot_i32::<L, CLIP>(acc, weights)
}

/// [`screlu_dot`] with the sum kept in i32 lanes, widened once at the end: fewer instructions
/// than summing in i64, in every build. Exact only where no partial sum can leave
/// the i32 range, which `sum clamp(x, 0, CLIP)^2 * |w| < 2^31` over `weights` guarantees
/// ([`fits_i32_sums`]); the caller checks that once per net.
#[inline]
pub(super) fn screlu_dot_in_i32<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    debug_assert!(fits_i32_sums::<CLIP>(weights));
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: `screlu_dot_in_i32_avx2` needs nothing but AVX2, which the processor has
        // (just checked); it reads only through the two slices.
        return unsafe { screlu_dot_in_i32_avx2::<L, CLIP>(acc, weights) };
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if let Some(acc) = L::narrow(acc) {
        return screlu_dot_in_i32_simd128::<CLIP>(acc, weights);
    }
    screlu_dot_in_i32_lanes::<L, CLIP>(acc, weights)
}

/// [`screlu_dot_in_i32`] on i16 sums in WebAssembly's 128-bit vectors, eight terms at a time
/// in i16 lanes: the square `c * c` (at most `255^2`, past i16's range) is taken modulo 2^16,
/// so where it reads negative it is `c * c - 65536`, and the sum is `dot(square, w) - 65536 *
/// dot(negative, w)` with `negative` -1 in those lanes; two i16 dot products (one instruction
/// each) in place of widening every term to i32. The sums wrap, and the result is exact where
/// [`fits_i32_sums`] holds.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn screlu_dot_in_i32_simd128<const CLIP: i32>(acc: &[i16], weights: &[i16]) -> i64 {
    use core::arch::wasm32::*;
    const { assert!(CLIP <= 255) };
    let (zero, clip) = (i16x8_splat(0), i16x8_splat(CLIP as i16));
    let (mut squares, mut wrapped) = (i32x4_splat(0), i32x4_splat(0));
    let n = acc.len().min(weights.len());
    let (acc8, w8) = (acc[..n].chunks_exact(8), weights[..n].chunks_exact(8));
    let (acc_rest, w_rest) = (acc8.remainder(), w8.remainder());
    for (x, w) in acc8.zip(w8) {
        // SAFETY: each reads the 16 bytes of one chunk of eight i16; `v128_load` takes any
        // alignment.
        let (x, w) = unsafe { (v128_load(x.as_ptr().cast()), v128_load(w.as_ptr().cast())) };
        let c = i16x8_min(i16x8_max(x, zero), clip);
        let square = i16x8_mul(c, c);
        squares = i32x4_add(squares, i32x4_dot_i16x8(square, w));
        wrapped = i32x4_add(wrapped, i32x4_dot_i16x8(i16x8_shr(square, 15), w));
    }
    let lanes = |v: v128| {
        (i32x4_extract_lane::<0>(v).wrapping_add(i32x4_extract_lane::<1>(v)))
            .wrapping_add(i32x4_extract_lane::<2>(v).wrapping_add(i32x4_extract_lane::<3>(v)))
    };
    let tail = acc_rest.iter().zip(w_rest).fold(0i32, |sum, (&x, &w)| {
        let c = i32::from(x).clamp(0, CLIP);
        sum.wrapping_add(c * i32::from(w) * c)
    });
    let sum = lanes(squares)
        .wrapping_sub(lanes(wrapped).wrapping_mul(65536))
        .wrapping_add(tail);
    i64::from(sum)
}

/// Whether [`screlu_dot_in_i32`] is exact for `weights` whatever the sums: the largest sum it
/// can meet, `CLIP^2 * sum |w|`, is below 2^31.
pub(super) fn fits_i32_sums<const CLIP: i32>(weights: &[i16]) -> bool {
    let bound: i64 = weights
        .iter()
        .map(|&w| i64::from(CLIP) * i64::from(CLIP) * i64::from(w).abs())
        .sum();
    bound < 1 << 31
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_in_i32_avx2<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    screlu_dot_in_i32_lanes::<L, CLIP>(acc, weights)
}

#[inline(always)]
fn screlu_dot_in_i32_lanes<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    let sum = acc.iter().zip(weights).fold(0i32, |sum, (&x, &w)| {
        let c = Into::<i32>::into(x).clamp(0, CLIP);
        sum.wrapping_add(c * i32::from(w) * c)
    });
    i64::from(sum)
}

#[inline(always)]
fn screlu_dot_i64<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&x, &w)| {
            let c = Into::<i32>::into(x).clamp(0, CLIP);
            i64::from(c * i32::from(w)) * i64::from(c)
        })
        .sum()
}

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128"),
    test
))]
#[inline(always)]
fn screlu_dot_i32<L: Lane, const CLIP: i32>(acc: &[L], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&x, &w)| {
            let c = Into::<i32>::into(x).clamp(0, CLIP);
            i64::from(c * i32::from(w) * c)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_the_inner_product_agrees_at_the_extremes() {
        let acc: Vec<i32> = [i32::MIN, -1, 0, 1, 254, 255, 256, i32::MAX]
            .into_iter()
            .cycle()
            .take(4096)
            .collect();
        for w in [i16::MIN, -1, 0, 1, i16::MAX] {
            let weights = vec![w; acc.len()];
            let expected: i64 = acc
                .iter()
                .map(|&x| i64::from(x.clamp(0, 255)).pow(2) * i64::from(w))
                .sum();
            assert_eq!(screlu_dot_i64::<_, 255>(&acc, &weights), expected);
            assert_eq!(screlu_dot_i32::<_, 255>(&acc, &weights), expected);
            assert_eq!(screlu_dot::<_, 255>(&acc, &weights), expected);
            let narrow: Vec<i16> = acc.iter().map(|&x| x.clamp(-32768, 32767) as i16).collect();
            assert_eq!(screlu_dot_i64::<_, 255>(&narrow, &weights), expected);
            assert_eq!(screlu_dot_i32::<_, 255>(&narrow, &weights), expected);
            assert_eq!(screlu_dot::<_, 255>(&narrow, &weights), expected);
        }
    }

    #[test]
    fn the_sum_in_i32_lanes_is_exact_up_to_its_bound_and_refused_past_it() {
        // The largest weights whose bound stays below 2^31 over 64 inputs, all clamped to 255.
        let acc = vec![i32::MAX; 64];
        let limit = ((1i64 << 31) - 1) / (255 * 255 * 64);
        for w in [limit, -limit] {
            let weights = vec![w as i16; 64];
            assert!(fits_i32_sums::<255>(&weights));
            assert_eq!(
                screlu_dot_in_i32::<_, 255>(&acc, &weights),
                screlu_dot_i64::<_, 255>(&acc, &weights)
            );
        }
        assert!(!fits_i32_sums::<255>(&[limit as i16 + 1; 64]));
        assert!(!fits_i32_sums::<255>(&[-(limit as i16) - 1; 64]));
        let mixed: Vec<i32> = (0..64).map(|i| i * 37 % 300 - 20).collect();
        let weights: Vec<i16> = (0..64)
            .map(|i| (i * 53 % 2 * limit - limit / 2) as i16)
            .collect();
        assert_eq!(
            screlu_dot_in_i32::<_, 255>(&mixed, &weights),
            screlu_dot_i64::<_, 255>(&mixed, &weights)
        );
    }

    widest!(fn add_then_sub_widest = add_then_sub(sums: &mut [i32], column: &[i16]));

    #[inline(always)]
    fn add_then_sub(sums: &mut [i32], column: &[i16]) {
        add(sums, column);
        sub(sums, &column[..column.len() / 2]);
    }

    #[test]
    fn a_kernel_gives_the_same_sums_in_its_widest_copy() {
        let column: Vec<i16> = (0..512).map(|i| (i * 37 % 201) as i16 - 100).collect();
        let mut portable: Vec<i32> = (0..512).collect();
        let mut wide = portable.clone();
        add_then_sub(&mut portable, &column);
        add_then_sub_widest(&mut wide, &column);
        assert_eq!(wide, portable);
    }
}
