//! The instruction-set cap shared by the batch kernels (timeline batch queries, crowd step).

/// The widest instruction set a batch kernel may use; it takes the best one the CPU has up
/// to this cap (checked at run time). Every choice gives the same bits. The default is no cap.
///
/// ```
/// use wayfarer::crowd::Crowd;
/// use wayfarer::simd::Simd;
///
/// let mut crowd = Crowd::new(16).unwrap();
/// crowd.set_simd(Simd::Avx2); // never above AVX2, e.g. where AVX-512 lowers the clock
/// assert!(crowd.simd() <= Simd::Avx2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Simd {
    /// Baseline code only (SSE2 on x86-64).
    Portable,
    /// Up to AVX2 (x86-64).
    Avx2,
    /// Up to AVX-512 (x86-64; the subsets each kernel needs: F and VL, plus BW and DQ for
    /// the timeline, BMI2 for the crowd's scan). Some older Intel CPUs lower their clock for
    /// AVX-512 code; cap at [`Simd::Avx2`] there if the rest of the frame suffers.
    #[default]
    Avx512,
}
