//! Many threads reading shared handles at once through the C ABI: path queries, schedule
//! evaluation (stateless and hinted, one hint array per thread), crossings and crowd reads.
//! Every thread's results must be bit-identical to the single-threaded ones computed before
//! the threads start (reads on a handle are documented as safe to run concurrently; mutating
//! calls need exclusive use and are not made here while readers run).
//!
//! The crowd's own multi-threaded step (`wf_crowd_step(…, threads)`) is checked too: any
//! thread count gives bit-identical agents to the one-thread step.

use std::thread;
use wayfarer::ffi::crowd::*;
use wayfarer::ffi::timeline::*;
use wayfarer::ffi::WfStatus;

const THREADS: usize = 8;
const ROUNDS: usize = 40;

/// A handle shared by reader threads. Reads on a handle are documented thread-safe, which is
/// exactly what this test exercises.
struct Shared<T>(*mut T);
impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Shared<T> {}
// SAFETY: only read-only `wf_*` calls are made on the pointee while it is shared, and the
// library documents those as safe from many threads; the handle outlives the thread scope.
unsafe impl<T> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Shared<T> {}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn ok(s: WfStatus, what: &str) {
    assert_eq!(s, WfStatus::Ok, "{what}");
}

/// A winding Catmull-Rom path through 40 points.
fn make_path() -> *mut WfPath {
    let pts: Vec<f32> = (0..40)
        .flat_map(|i| {
            let a = i as f32 * 0.7;
            [
                10.0 * a.cos() + i as f32,
                0.3 * (i % 3) as f32,
                10.0 * a.sin(),
            ]
        })
        .collect();
    let mut path = core::ptr::null_mut();
    // SAFETY: pts holds 40 points; path is one out-pointer.
    ok(
        unsafe { wf_path_new_catmull_rom(pts.as_ptr(), 40, 0.5, 0.0, &mut path) },
        "wf_path_new_catmull_rom",
    );
    path
}

/// Everything the path readers compute, from one thread.
fn path_queries(path: *const WfPath) -> Vec<u32> {
    let mut len = 0.0f32;
    // SAFETY: a live path; len is one float.
    ok(unsafe { wf_path_length(path, &mut len) }, "wf_path_length");
    let n = 257;
    let ds: Vec<f32> = (0..n)
        .map(|i| len * i as f32 / (n - 1) as f32 - 1.0)
        .collect();
    let mut pos = vec![0.0f32; 3 * n];
    let mut fwd = vec![0.0f32; 3 * n];
    // SAFETY: ds holds n floats, the outputs n points each.
    ok(
        unsafe {
            wf_path_at_distances(
                path,
                ds.as_ptr(),
                n,
                pos.as_mut_ptr(),
                n,
                fwd.as_mut_ptr(),
                n,
            )
        },
        "wf_path_at_distances",
    );
    let q: Vec<f32> = (0..64)
        .flat_map(|i| [i as f32 - 20.0, 1.0, (i % 9) as f32 * 3.0 - 12.0])
        .collect();
    let mut nd = vec![0.0f32; 64];
    let mut np = vec![0.0f32; 3 * 64];
    // SAFETY: q holds 64 points, nd 64 floats, np 64 points.
    ok(
        unsafe {
            wf_path_nearest(
                path,
                q.as_ptr(),
                64,
                nd.as_mut_ptr(),
                64,
                np.as_mut_ptr(),
                64,
            )
        },
        "wf_path_nearest",
    );
    let mut all = vec![len.to_bits()];
    for v in [&pos, &fwd, &nd, &np] {
        all.extend(bits(v));
    }
    all
}

/// A set of 50 NPCs on two paths with varied keys, easing and wrap modes.
fn make_set(paths: &[*mut WfPath]) -> *mut WfScheduleSet {
    let mut set = core::ptr::null_mut();
    // SAFETY: set is one out-pointer.
    ok(
        unsafe { wf_schedule_set_new(&mut set) },
        "wf_schedule_set_new",
    );
    for &p in paths {
        let mut index = u32::MAX;
        // SAFETY: live set and path; one out-pointer.
        ok(
            unsafe { wf_schedule_set_add_path(set, p, &mut index) },
            "wf_schedule_set_add_path",
        );
    }
    for i in 0..50u32 {
        let times = [i as f64, i as f64 + 3.0, i as f64 + 5.0, i as f64 + 9.5];
        let distances = [0.0f32, 20.0, 20.0, 5.0 + i as f32];
        let ease = [i % 4, (i / 4) % 4, 3];
        let mut npc = u32::MAX;
        // SAFETY: times/distances hold 4 keys, ease 3 flags; one out-pointer.
        ok(
            unsafe {
                wf_schedule_set_add_npc(
                    set,
                    i % 2,
                    times.as_ptr(),
                    distances.as_ptr(),
                    4,
                    ease.as_ptr(),
                    3,
                    i % 3,
                    &mut npc,
                )
            },
            "wf_schedule_set_add_npc",
        );
    }
    set
}

/// Every NPC's outputs at a few times (stateless, per-NPC times and hinted), and crossings.
fn set_queries(set: *const WfScheduleSet, hints: &mut [u32]) -> Vec<u32> {
    let n = 50;
    let mut all = Vec::new();
    let mut pos = vec![0.0f32; 3 * n];
    let mut fwd = vec![0.0f32; 3 * n];
    let mut vel = vec![0.0f32; 3 * n];
    let mut st = vec![0u32; n];
    for k in 0..24 {
        let t = k as f64 * 2.75 - 6.0;
        // SAFETY: every output holds n NPCs.
        ok(
            unsafe {
                wf_schedule_set_evaluate(
                    set,
                    t,
                    pos.as_mut_ptr(),
                    n,
                    fwd.as_mut_ptr(),
                    n,
                    vel.as_mut_ptr(),
                    n,
                    st.as_mut_ptr(),
                    n,
                )
            },
            "wf_schedule_set_evaluate",
        );
        all.extend(bits(&pos));
        all.extend(bits(&fwd));
        all.extend(bits(&vel));
        all.extend(&st);
        // SAFETY: as above; hints holds 2n u32 owned by this thread.
        ok(
            unsafe {
                wf_schedule_set_evaluate_hinted(
                    set,
                    t,
                    hints.as_mut_ptr(),
                    hints.len(),
                    pos.as_mut_ptr(),
                    n,
                    core::ptr::null_mut(),
                    0,
                    core::ptr::null_mut(),
                    0,
                    core::ptr::null_mut(),
                    0,
                )
            },
            "wf_schedule_set_evaluate_hinted",
        );
        all.extend(bits(&pos));
        let times: Vec<f64> = (0..n).map(|i| t + i as f64 * 0.1).collect();
        // SAFETY: times holds n doubles, pos n points.
        ok(
            unsafe {
                wf_schedule_set_evaluate_times(
                    set,
                    times.as_ptr(),
                    n,
                    pos.as_mut_ptr(),
                    n,
                    core::ptr::null_mut(),
                    0,
                    core::ptr::null_mut(),
                    0,
                    st.as_mut_ptr(),
                    n,
                )
            },
            "wf_schedule_set_evaluate_times",
        );
        all.extend(bits(&pos));
        all.extend(&st);
        let (mut npcs, mut keys, mut dirs) = (vec![0u32; 512], vec![0u32; 512], vec![0i32; 512]);
        let mut count = 0usize;
        // SAFETY: the three arrays hold 512 elements; count is one usize.
        ok(
            unsafe {
                wf_schedule_set_crossings(
                    set,
                    t + 4.0,
                    t - 3.0,
                    npcs.as_mut_ptr(),
                    keys.as_mut_ptr(),
                    dirs.as_mut_ptr(),
                    512,
                    &mut count,
                )
            },
            "wf_schedule_set_crossings",
        );
        all.push(count as u32);
        all.extend(&npcs[..count]);
        all.extend(&keys[..count]);
        all.extend(dirs[..count].iter().map(|&d| d as u32));
    }
    all
}

#[test]
fn concurrent_path_and_schedule_reads_match_single_threaded() {
    let paths = [make_path(), make_path()];
    let set = make_set(&paths);
    let want_path = path_queries(paths[0]);
    let want_set = set_queries(set, &mut vec![0u32; 100]);
    let (p, s) = (Shared(paths[0]), Shared(set));
    thread::scope(|scope| {
        for _ in 0..THREADS {
            let (want_path, want_set) = (&want_path, &want_set);
            scope.spawn(move || {
                let (p, s) = (p, s);
                let mut hints = vec![0u32; 100];
                for _ in 0..ROUNDS {
                    assert!(
                        path_queries(p.0) == *want_path,
                        "path reads differ across threads"
                    );
                    assert!(
                        set_queries(s.0, &mut hints) == *want_set,
                        "set reads differ across threads"
                    );
                }
            });
        }
    });
    // SAFETY: the threads are joined; each handle is freed once.
    unsafe {
        wf_schedule_set_free(set);
        wf_path_free(paths[0]);
        wf_path_free(paths[1]);
    }
}

/// A crowd of `n` agents on a grid walking to the opposite side, around a few obstacles.
fn make_crowd(n: usize) -> (*mut WfCrowd, Vec<u32>) {
    let mut c = core::ptr::null_mut();
    // SAFETY: c is one out-pointer.
    ok(unsafe { wf_crowd_new(n, &mut c) }, "wf_crowd_new");
    let side = (n as f32).sqrt().ceil() as usize;
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let (x, z) = (
            (i % side) as f32 * 1.1 - 20.0,
            (i / side) as f32 * 1.1 - 20.0,
        );
        let mut id = 0u32;
        // SAFETY: a live crowd; the points hold 3 floats; id is one u32.
        unsafe {
            ok(
                wf_crowd_add_agent(
                    c,
                    [x, 0.0, z].as_ptr(),
                    0.0,
                    1.2 + (i % 5) as f32 * 0.1,
                    0.35,
                    &mut id,
                ),
                "wf_crowd_add_agent",
            );
            ok(
                wf_crowd_set_target(c, id, [-x, 0.0, -z].as_ptr(), 0.3),
                "wf_crowd_set_target",
            );
        }
        ids.push(id);
    }
    let mut oid = 0u32;
    // SAFETY: a live crowd; the points hold 3 floats.
    unsafe {
        ok(
            wf_crowd_add_circle(c, [0.0, 0.0, 0.0].as_ptr(), 3.0, &mut oid),
            "wf_crowd_add_circle",
        );
        ok(
            wf_crowd_add_box(
                c,
                [6.0, 0.0, -2.0].as_ptr(),
                [8.0, 1.0, 2.0].as_ptr(),
                &mut oid,
            ),
            "wf_crowd_add_box",
        );
        ok(
            wf_crowd_add_wall(
                c,
                [-8.0, 0.0, 5.0].as_ptr(),
                [-3.0, 0.0, 9.0].as_ptr(),
                &mut oid,
            ),
            "wf_crowd_add_wall",
        );
    }
    (c, ids)
}

/// Everything the crowd read calls report for `ids`, as bits.
fn crowd_reads(c: *const WfCrowd, ids: &[u32]) -> Vec<u32> {
    let n = ids.len();
    let (mut pos, mut yaw, mut st) = (vec![0.0f32; 3 * n], vec![0.0f32; n], vec![0u32; n]);
    let (mut kind, mut hid) = (vec![0u32; n], vec![0u32; n]);
    let (mut pts, mut nrm) = (vec![0.0f32; 3 * n], vec![0.0f32; 3 * n]);
    let mut count = 0usize;
    // SAFETY: a live crowd; ids n u32; every output holds n elements or points.
    unsafe {
        ok(wf_crowd_agent_count(c, &mut count), "wf_crowd_agent_count");
        ok(
            wf_crowd_read_agents(
                c,
                ids.as_ptr(),
                n,
                pos.as_mut_ptr(),
                n,
                yaw.as_mut_ptr(),
                n,
                st.as_mut_ptr(),
                n,
            ),
            "wf_crowd_read_agents",
        );
        ok(
            wf_crowd_read_hits(
                c,
                ids.as_ptr(),
                n,
                kind.as_mut_ptr(),
                n,
                hid.as_mut_ptr(),
                n,
                pts.as_mut_ptr(),
                n,
                nrm.as_mut_ptr(),
                n,
            ),
            "wf_crowd_read_hits",
        );
    }
    let mut all = vec![count as u32];
    for v in [&pos, &yaw, &pts, &nrm] {
        all.extend(bits(v));
    }
    for v in [&st, &kind, &hid] {
        all.extend(v.iter());
    }
    all
}

#[test]
fn concurrent_crowd_reads_match_single_threaded() {
    let (c, ids) = make_crowd(300);
    for _ in 0..20 {
        // SAFETY: a live crowd, used by this thread only while it steps.
        ok(unsafe { wf_crowd_step(c, 1.0 / 30.0, 1) }, "wf_crowd_step");
    }
    let want = crowd_reads(c, &ids);
    let shared = Shared(c);
    thread::scope(|scope| {
        for k in 0..THREADS {
            let (want, ids) = (&want, &ids);
            scope.spawn(move || {
                let c = shared;
                // Each thread reads every agent, and also a rotated subset of the ids.
                let sub: Vec<u32> = ids.iter().cycle().skip(k * 37).take(101).copied().collect();
                let want_sub = crowd_reads(c.0, &sub);
                for _ in 0..ROUNDS {
                    assert!(
                        crowd_reads(c.0, ids) == *want,
                        "crowd reads differ across threads"
                    );
                    assert!(
                        crowd_reads(c.0, &sub) == want_sub,
                        "crowd reads differ across threads"
                    );
                }
            });
        }
    });
    // SAFETY: the threads are joined; the crowd is freed once.
    unsafe { wf_crowd_free(c) };
}

/// The multi-threaded step (`threads` > 1, with enough agents to really split) gives the same
/// bits as the one-thread step, step after step.
#[test]
fn crowd_step_is_bit_identical_for_any_thread_count() {
    let n = 1200;
    let (one, ids) = make_crowd(n);
    let others: Vec<_> = [0u32, 2, 3, 8, u32::MAX]
        .iter()
        .map(|&t| (t, make_crowd(n).0))
        .collect();
    for step in 0..30 {
        let dt = if step % 7 == 6 { 0.35 } else { 1.0 / 60.0 };
        // SAFETY: live crowds, each used by this thread only.
        ok(unsafe { wf_crowd_step(one, dt, 1) }, "wf_crowd_step");
        let want = crowd_reads(one, &ids);
        for &(threads, c) in &others {
            // SAFETY: as above.
            ok(unsafe { wf_crowd_step(c, dt, threads) }, "wf_crowd_step");
            assert!(
                crowd_reads(c, &ids) == want,
                "step {step}: {threads} threads differ from one"
            );
        }
    }
    // SAFETY: every crowd is live and freed once.
    unsafe {
        wf_crowd_free(one);
        for (_, c) in others {
            wf_crowd_free(c);
        }
    }
}
