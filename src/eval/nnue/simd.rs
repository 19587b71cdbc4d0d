//! Which vector instructions the network's kernels run on, decided in one place. The release
//! binaries are built for any x86-64; AVX2 is looked for at run time (the standard library
//! asks the processor once and keeps the answer), and the portable kernels, which give the
//! same sums, run where it is missing. The browser build uses WebAssembly's 128-bit SIMD where
//! it was compiled with it. The column arithmetic the accumulator and the refresh cache share
//! lives here too, so neither module needs the other's.

/// Whether this processor runs the AVX2 kernels.
#[inline]
pub(crate) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
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

/// Adds an input's column to a viewer's sums. A plain loop: the compiler makes it vector code,
/// AVX2's inside the kernels compiled for AVX2 that inline it, `simd128` in the browser build.
#[inline]
pub(super) fn add(sums: &mut [i32], column: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(column) {
        *s += i32::from(w);
    }
}

/// Takes an input's column from a viewer's sums (as [`add`]).
#[inline]
pub(super) fn sub(sums: &mut [i32], column: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(column) {
        *s -= i32::from(w);
    }
}
