//! Which lane builds the crowd step's kernels (the candidate scan, the neighbour cull, the
//! batched turns) run on this CPU: the best it has up to a [`Simd`] cap, found once when the
//! cap is set. Every build gives the same bits; only the speed differs.

use crate::simd::Simd;

/// The lane builds the step may use on this CPU (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Kernels {
    level: Simd,
}

impl Kernels {
    /// The fastest build this CPU runs, up to `cap`.
    pub(crate) fn detect(cap: Simd) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let avx512 = std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vl");
            let avx2 = std::is_x86_feature_detected!("avx2");
            let best = if avx512 && avx2 {
                Simd::Avx512
            } else if avx2 {
                Simd::Avx2
            } else {
                Simd::Portable
            };
            Kernels {
                level: best.min(cap),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = cap;
            Kernels::portable()
        }
    }

    /// The builds in use.
    pub(crate) fn level(self) -> Simd {
        self.level
    }

    /// Whether the AVX-512 builds (F and VL; and AVX2) may run.
    #[cfg(test)]
    pub(crate) fn avx512(self) -> bool {
        self.level == Simd::Avx512
    }

    /// Whether the AVX2 builds (or better) may run.
    pub(crate) fn avx2(self) -> bool {
        self.level >= Simd::Avx2
    }

    /// The portable build only.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(crate) fn portable() -> Self {
        Kernels {
            level: Simd::Portable,
        }
    }
}
