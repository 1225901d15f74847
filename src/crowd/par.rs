//! The step's helpers shared by its phases: data-parallel loops over equal chunks on scoped
//! threads (each output depends only on its index and a read-only world, so the bits are the
//! same for any thread count), the thread thresholds, and cache prefetch hints.

/// Fewest agents per thread worth a thread of their own.
#[cfg(not(fuzzing))]
pub(crate) const MIN_AGENTS_PER_THREAD: usize = 256;
/// Fuzz builds (`cargo fuzz` sets `cfg(fuzzing)`) split even tiny crowds across threads, so
/// the thread-differential fuzz target exercises the multi-threaded step with small inputs.
#[cfg(fuzzing)]
pub(crate) const MIN_AGENTS_PER_THREAD: usize = 2;
/// Fewest agents per thread worth a thread of their own in the lighter phases (building the
/// bodies, the first projection pass, the final positions, the write-back: ~100-200
/// instructions per agent against the steer's ~2 000). Measured on 2 shared cores: spawning
/// for them cost more than it saved at 10 000 agents and paid off at 100 000.
#[cfg(not(fuzzing))]
pub(crate) const MIN_LIGHT_PER_THREAD: usize = 16_384;
/// (See `MIN_AGENTS_PER_THREAD` under `cfg(fuzzing)`.)
#[cfg(fuzzing)]
pub(crate) const MIN_LIGHT_PER_THREAD: usize = 2;
/// Bodies ahead whose scattered records are prefetched.
pub(crate) const SCATTER_AHEAD: usize = 16;

/// Whether [`par_update`] and its kin run `len` items of a light phase on one thread.
pub(crate) fn one_thread((threads, per_thread): (usize, usize), len: usize) -> bool {
    threads.min(len / per_thread).max(1) == 1
}

/// Asks the CPU to fetch the cache line holding `p` for reading (a hint: it reads nothing
/// and cannot fault, whatever `p` is; a no-op off x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86_64 baseline; a prefetch accesses no memory.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`prefetch`] of the first `lines` cache lines from `p`, for writing (PREFETCHW).
#[inline(always)]
pub(crate) fn prefetch_write<T>(p: *const T, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    for line in 0..lines {
        // SAFETY: as in `prefetch`.
        unsafe {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_ET0};
            _mm_prefetch::<_MM_HINT_ET0>(p.cast::<i8>().wrapping_add(64 * line));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, lines);
}

/// Runs `f(start, a_chunk, b_chunk)` over equal chunks of `a` and `b` (equal lengths; the
/// chunks start at index `start`), on up to `threads` scoped threads of at least
/// `per_thread` items each (same bits for any thread count: each call may read only the
/// read-only world besides its own chunks).
pub(crate) fn par_chunks2<A: Send, B: Send, F: Fn(usize, &mut [A], &mut [B]) + Sync>(
    (threads, per_thread): (usize, usize),
    a: &mut [A],
    b: &mut [B],
    f: F,
) {
    debug_assert_eq!(a.len(), b.len());
    let threads = threads.min(a.len() / per_thread).max(1);
    if threads == 1 {
        f(0, a, b);
        return;
    }
    let chunk = a.len().div_ceil(threads);
    std::thread::scope(|s| {
        let f = &f;
        let mut parts = a.chunks_mut(chunk).zip(b.chunks_mut(chunk)).enumerate();
        let first = parts.next();
        for (c, (xs, ys)) in parts {
            s.spawn(move || f(c * chunk, xs, ys));
        }
        if let Some((_, (xs, ys))) = first {
            f(0, xs, ys);
        }
    });
}

/// Runs `f(k, &mut a[k], &mut b[k])` for every k (`a` and `b` have equal lengths), on up to
/// `threads` scoped threads of at least `per_thread` items each ([`par_chunks2`]).
///
/// `f` is called from one place, the per-chunk loop, so it is inlined there (called from the
/// serial path and from each thread, it was not: a call per item).
pub(crate) fn par_update2<A: Send, B: Send, F: Fn(usize, &mut A, &mut B) + Sync>(
    threads: (usize, usize),
    a: &mut [A],
    b: &mut [B],
    f: F,
) {
    par_chunks2(threads, a, b, |start, xs, ys| {
        for (i, (x, y)) in xs.iter_mut().zip(ys).enumerate() {
            f(start + i, x, y);
        }
    });
}

/// [`par_update2`] over one slice: `f(k, &mut out[k])` for every k.
pub(crate) fn par_update<T: Send, F: Fn(usize, &mut T) + Sync>(
    (threads, per_thread): (usize, usize),
    out: &mut [T],
    f: F,
) {
    let run = |start: usize, part: &mut [T]| {
        for (i, o) in part.iter_mut().enumerate() {
            f(start + i, o);
        }
    };
    let threads = threads.min(out.len() / per_thread).max(1);
    if threads == 1 {
        run(0, out);
        return;
    }
    let chunk = out.len().div_ceil(threads);
    std::thread::scope(|s| {
        let run = &run;
        let mut parts = out.chunks_mut(chunk).enumerate();
        let first = parts.next();
        for (c, part) in parts {
            s.spawn(move || run(c * chunk, part));
        }
        if let Some((_, part)) = first {
            run(0, part);
        }
    });
}

/// Runs `f(k)` for every k into `out[k]` ([`par_update`]; same bits for any thread count:
/// each output depends only on k and the read-only world).
pub(crate) fn par_fill<T: Send, F: Fn(usize) -> T + Sync>(
    threads: (usize, usize),
    out: &mut [T],
    f: F,
) {
    par_update(threads, out, |k, o| *o = f(k));
}
