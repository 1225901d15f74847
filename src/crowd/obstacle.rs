//! Static obstacles: circles, axis-aligned boxes, oriented boxes and wall segments, all seen by
//! the step as one shape — a rounded box (a box of half extents `half` around `center`, turned so
//! its local x axis is `axis`, grown by `round`).
//!
//! Signed distance of a point p to a rounded box: with q = |local(p)| − half,
//! d = ‖max(q, 0)‖ + min(max(q.x, q.z), 0) − round (negative inside).

use super::angle::atan2;
use glam::{Vec2, Vec3};

/// A static obstacle as the caller describes it.
///
/// ```
/// use wayfarer::crowd::{Crowd, Obstacle};
/// use wayfarer::Vec3;
///
/// let mut crowd = Crowd::new(4).unwrap();
/// let pillar = crowd.add_obstacle(Obstacle::Circle { center: Vec3::new(2.0, 0.0, 2.0), radius: 0.5 }).unwrap();
/// crowd.add_obstacle(Obstacle::Wall { a: Vec3::new(-5.0, 0.0, 5.0), b: Vec3::new(5.0, 0.0, 5.0) }).unwrap();
/// crowd.remove_obstacle(pillar).unwrap();
/// assert_eq!(crowd.obstacles().count(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Obstacle {
    /// A vertical cylinder.
    Circle {
        /// Centre (y ignored).
        center: Vec3,
        /// Radius, metres (> 0).
        radius: f32,
    },
    /// An axis-aligned box from `min` to `max` on the XZ plane.
    Box {
        /// Smallest x and z.
        min: Vec3,
        /// Largest x and z.
        max: Vec3,
    },
    /// A box turned by `yaw` (same convention as agents: its local +Z is (sin yaw, 0, cos yaw)).
    OrientedBox {
        /// Centre.
        center: Vec3,
        /// Half extent along its local x (right) axis.
        half_x: f32,
        /// Half extent along its local z (forward) axis.
        half_z: f32,
        /// Turn, radians.
        yaw: f32,
    },
    /// A segment of zero thickness from `a` to `b`.
    Wall {
        /// One end.
        a: Vec3,
        /// The other end.
        b: Vec3,
    },
}

/// The step's view of an obstacle: a rounded oriented box on the XZ plane.
///
/// ```
/// use wayfarer::crowd::Obstacle;
/// use wayfarer::Vec3;
///
/// let shape = Obstacle::Circle { center: Vec3::ZERO, radius: 2.0 }.shape().unwrap();
/// assert_eq!(shape.bounding_radius(), 2.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Centre (x, z).
    pub center: Vec2,
    /// Unit local x axis in world (x, z); local z is its left-hand perpendicular.
    pub axis: Vec2,
    /// Half extents along local x and z.
    pub half: Vec2,
    /// Rounding radius (a circle is a zero box rounded by its radius).
    pub round: f32,
}

/// A point of contact: where, the outward normal there, and the signed distance.
///
/// ```
/// use wayfarer::crowd::Obstacle;
/// use wayfarer::Vec3;
/// use glam::Vec2;
///
/// let shape = Obstacle::Circle { center: Vec3::ZERO, radius: 1.0 }.shape().unwrap();
/// let c = shape.contact(Vec2::new(3.0, 0.0));
/// assert!((c.distance - 2.0).abs() < 1e-6); // 2 m outside
/// assert!((c.normal - Vec2::X).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Closest point on the surface.
    pub point: Vec2,
    /// Unit outward normal at it.
    pub normal: Vec2,
    /// Signed distance from the query point (negative inside).
    pub distance: f32,
}

impl Obstacle {
    /// The rounded-box shape of this obstacle, or `None` when its numbers are not finite or
    /// make no shape (radius ≤ 0, min > max, negative half extents, a zero-length wall).
    pub fn shape(&self) -> Option<Shape> {
        let s = match *self {
            Obstacle::Circle { center, radius } => {
                if radius.is_nan() || radius <= 0.0 || !center.is_finite() || !radius.is_finite() {
                    return None;
                }
                Shape {
                    center: Vec2::new(center.x, center.z),
                    axis: Vec2::X,
                    half: Vec2::ZERO,
                    round: radius,
                }
            }
            Obstacle::Box { min, max } => {
                if !min.is_finite() || !max.is_finite() || min.x > max.x || min.z > max.z {
                    return None;
                }
                Shape {
                    center: Vec2::new(min.x + max.x, min.z + max.z) * 0.5,
                    axis: Vec2::X,
                    half: Vec2::new(max.x - min.x, max.z - min.z) * 0.5,
                    round: 0.0,
                }
            }
            Obstacle::OrientedBox {
                center,
                half_x,
                half_z,
                yaw,
            } => {
                let ok = center.is_finite()
                    && half_x.is_finite()
                    && half_z.is_finite()
                    && yaw.is_finite()
                    && half_x >= 0.0
                    && half_z >= 0.0;
                if !ok {
                    return None;
                }
                let (s, c) = yaw.sin_cos();
                Shape {
                    center: Vec2::new(center.x, center.z),
                    axis: Vec2::new(c, -s),
                    half: Vec2::new(half_x, half_z),
                    round: 0.0,
                }
            }
            Obstacle::Wall { a, b } => {
                if !a.is_finite() || !b.is_finite() {
                    return None;
                }
                let (a, b) = (Vec2::new(a.x, a.z), Vec2::new(b.x, b.z));
                let len = a.distance(b);
                if len.is_nan() || len <= 0.0 || !len.is_finite() {
                    return None;
                }
                Shape {
                    center: (a + b) * 0.5,
                    axis: (b - a) / len,
                    half: Vec2::new(len * 0.5, 0.0),
                    round: 0.0,
                }
            }
        };
        Some(s)
    }
}

impl Shape {
    /// World (x, z) → local (along axis, along its left perpendicular).
    #[inline]
    fn local(&self, p: Vec2) -> Vec2 {
        let d = p - self.center;
        Vec2::new(d.dot(self.axis), d.dot(self.perp()))
    }

    /// The local z axis in world.
    #[inline]
    fn perp(&self) -> Vec2 {
        Vec2::new(-self.axis.y, self.axis.x)
    }

    #[inline]
    fn world_dir(&self, v: Vec2) -> Vec2 {
        self.axis * v.x + self.perp() * v.y
    }

    /// Radius of a circle around `center` holding the whole shape.
    #[inline]
    pub fn bounding_radius(&self) -> f32 {
        // (A circle's is its radius: the same bits as the sum, without a square root.)
        if self.half == Vec2::ZERO {
            self.round
        } else {
            self.half.length() + self.round
        }
    }

    /// Half extents of the world-space bounding box, including the rounding.
    pub fn extent(&self) -> Vec2 {
        let a = self.axis.abs();
        Vec2::new(
            a.x * self.half.x + a.y * self.half.y,
            a.y * self.half.x + a.x * self.half.y,
        ) + Vec2::splat(self.round)
    }

    /// The signed distance from `p` to the surface (negative inside): `contact(p).distance`,
    /// the same bits, without the normal and the surface point. The outer part of
    /// `|local(p)| − half` is the distance to the core box, less the rounding; inside the core
    /// box, the larger of its components (the nearer face).
    #[inline]
    pub fn distance(&self, p: Vec2) -> f32 {
        let q = self.local(p).abs() - self.half;
        let core_dist = if q.x > 0.0 || q.y > 0.0 {
            q.max(Vec2::ZERO).length()
        } else if q.x > q.y {
            q.x
        } else {
            q.y
        };
        core_dist - self.round
    }

    /// Closest surface point to `p`, the outward normal there and the signed distance.
    pub fn contact(&self, p: Vec2) -> Contact {
        let l = self.local(p);
        let q = l.abs() - self.half;
        let sign = Vec2::new(
            if l.x < 0.0 { -1.0 } else { 1.0 },
            if l.y < 0.0 { -1.0 } else { 1.0 },
        );
        let (n_local, core_dist) = if q.x > 0.0 || q.y > 0.0 {
            let out = q.max(Vec2::ZERO);
            let len = out.length();
            (out * sign / len, len)
        } else if q.x > q.y {
            (Vec2::new(sign.x, 0.0), q.x)
        } else {
            (Vec2::new(0.0, sign.y), q.y)
        };
        let n_local = if n_local.is_finite() && n_local != Vec2::ZERO {
            n_local
        } else {
            // On the core box's surface exactly, or a zero box: any deterministic direction.
            Vec2::new(0.0, sign.y)
        };
        let normal = self.world_dir(n_local);
        let distance = core_dist - self.round;
        Contact {
            point: p - normal * distance,
            normal,
            distance,
        }
    }

    /// The first hit of the ray `origin + dir·s` (|dir| = 1, 0 ≤ s ≤ `max_s`) with this shape
    /// grown by `grow`: the distance s and the outward normal there. A ray starting inside hits
    /// at s = 0 with the contact normal.
    pub fn ray(&self, origin: Vec2, dir: Vec2, grow: f32, max_s: f32) -> Option<(f32, Vec2)> {
        let o = self.local(origin);
        let d = Vec2::new(dir.dot(self.axis), dir.dot(self.perp()));
        let r = self.round + grow;
        let h = self.half;
        // Minkowski sum of the box and a disc: two crossed rectangles and four corner discs.
        let mut best: Option<(f32, Vec2)> = None;
        let mut consider = |hit: Option<(f32, Vec2)>| {
            if let Some((s, n)) = hit {
                if s <= max_s && best.is_none_or(|(b, _)| s < b) {
                    best = Some((s, n));
                }
            }
        };
        consider(ray_rect(o, d, Vec2::new(h.x + r, h.y)));
        consider(ray_rect(o, d, Vec2::new(h.x, h.y + r)));
        if r > 0.0 {
            for c in [
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(-h.x, -h.y),
            ] {
                consider(ray_circle(o, d, c, r));
            }
        }
        best.map(|(s, n)| (s, self.world_dir(n)))
    }
    /// Distance from the segment `a → b` to this shape: the least distance from any of its
    /// points to the surface, and ≤ 0 when the segment touches or crosses the shape.
    ///
    /// In local coordinates the core box `|x| ≤ h.x, |z| ≤ h.y` is convex and so is the
    /// segment: when they do not meet, their distance is reached at a vertex of one of them,
    /// so it is the least of the two end points' distances to the box and the four corners'
    /// distances to the segment. The rounding is then subtracted.
    pub fn segment_distance(&self, a: Vec2, b: Vec2) -> f32 {
        if self.half == Vec2::ZERO {
            // A circle: the same value, its four corners being its centre.
            return point_segment_distance(self.center, a, b) - self.round;
        }
        let (p, q) = (self.local(a), self.local(b));
        let h = self.half;
        // The segment meets the core box where the ray along it enters within its length.
        let meets = ray_rect(p, q - p, h).is_some_and(|(t, _)| t <= 1.0);
        let core = if meets {
            0.0
        } else {
            let to_box = |v: Vec2| (v.abs() - h).max(Vec2::ZERO).length();
            let mut d = to_box(p).min(to_box(q));
            for c in [
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(-h.x, -h.y),
            ] {
                d = d.min(point_segment_distance(c, p, q));
            }
            d
        };
        core - self.round
    }

    /// Where the surface point of contact `ct` lies along the surface: its arc length from the
    /// core box's corner (h.x, −h.y), counter-clockwise in local coordinates (x along the
    /// axis, z along its left perpendicular), and the perimeter, 4·h.x + 4·h.y + 2π·round.
    ///
    /// The surface runs in four quarters, each a face of the core box then the rounded corner
    /// that follows it: the face x = h.x then the corner (h.x, h.y), the face z = h.y then
    /// (−h.x, h.y), and so on. The local outward normal n at the point says which quarter
    /// (its signs: a face's normal is along an axis exactly) and how far round its corner
    /// (the angle φ ∈ [0, π/2) it turned from the face's normal, an arc of round·φ); the core
    /// point c (the surface point clamped to the core box) says how far along the face.
    fn perimeter_at(&self, ct: &Contact) -> (f32, f32) {
        let n = Vec2::new(ct.normal.dot(self.axis), ct.normal.dot(self.perp()));
        let c = self.local(ct.point).clamp(-self.half, self.half);
        let (h, r) = (self.half, self.round);
        let quarter = core::f32::consts::FRAC_PI_2 * r;
        // (base of the quarter, distance along its face, how far round its corner)
        let (base, along, phi) = if n.x > 0.0 && n.y >= 0.0 {
            (0.0, c.y + h.y, atan2(n.y, n.x))
        } else if n.y > 0.0 && n.x <= 0.0 {
            (2.0 * h.y + quarter, h.x - c.x, atan2(-n.x, n.y))
        } else if n.x < 0.0 && n.y <= 0.0 {
            (
                2.0 * (h.x + h.y) + 2.0 * quarter,
                h.y - c.y,
                atan2(-n.y, -n.x),
            )
        } else {
            (
                2.0 * h.x + 4.0 * h.y + 3.0 * quarter,
                c.x + h.x,
                atan2(n.x, -n.y),
            )
        };
        let total = 4.0 * (h.x + h.y) + 4.0 * quarter;
        (base + along + r * phi, total)
    }

    /// The unit tangent of the surface at the point nearest `from`, pointing the shorter way
    /// round the surface to the point nearest `to` (counter-clockwise on a tie, and when the
    /// two are the same point).
    ///
    /// With u the arc length along the surface (see `perimeter_at`) and L the perimeter,
    /// counter-clockwise is shorter when (u_to − u_from) mod L ≤ L/2; the counter-clockwise
    /// tangent is the outward normal turned a quarter counter-clockwise.
    pub fn way_round(&self, from: Vec2, to: Vec2) -> Vec2 {
        let at = self.contact(from);
        let (u_from, total) = self.perimeter_at(&at);
        let (u_to, _) = self.perimeter_at(&self.contact(to));
        let ahead = (u_to - u_from).rem_euclid(total);
        let n = at.normal;
        let ccw = Vec2::new(-n.y, n.x);
        if ahead <= 0.5 * total {
            ccw
        } else {
            -ccw
        }
    }
}

/// Distance from `c` to the segment `p → q`.
pub(crate) fn point_segment_distance(c: Vec2, p: Vec2, q: Vec2) -> f32 {
    let d = q - p;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((c - p).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    c.distance(p + d * t)
}

/// Ray vs. axis-aligned rectangle |x| ≤ h.x, |z| ≤ h.y (local). Starting inside: s = 0 and the
/// normal of the nearest face.
fn ray_rect(o: Vec2, d: Vec2, h: Vec2) -> Option<(f32, Vec2)> {
    if o.x.abs() <= h.x && o.y.abs() <= h.y {
        let (gx, gz) = (h.x - o.x.abs(), h.y - o.y.abs());
        let n = if gx < gz {
            Vec2::new(o.x.signum(), 0.0)
        } else {
            Vec2::new(0.0, o.y.signum())
        };
        return Some((0.0, n));
    }
    let mut t_near = f32::NEG_INFINITY;
    let mut t_far = f32::INFINITY;
    let mut n = Vec2::ZERO;
    for k in 0..2 {
        let (ok, dk, hk) = (o[k], d[k], h[k]);
        if dk.abs() < 1e-12 {
            if ok.abs() > hk {
                return None;
            }
            continue;
        }
        let t1 = (-hk - ok) / dk;
        let t2 = (hk - ok) / dk;
        let (ta, tb) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
        if ta > t_near {
            t_near = ta;
            let mut nn = Vec2::ZERO;
            nn[k] = -dk.signum();
            n = nn;
        }
        t_far = t_far.min(tb);
    }
    if t_near > t_far || t_near < 0.0 {
        return None;
    }
    Some((t_near, n))
}

/// Ray vs. circle (centre c, radius r), entering hits only; starting inside: s = 0.
fn ray_circle(o: Vec2, d: Vec2, c: Vec2, r: f32) -> Option<(f32, Vec2)> {
    let m = o - c;
    let cc = m.length_squared() - r * r;
    if cc <= 0.0 {
        let len = m.length();
        let n = if len > 0.0 { m / len } else { Vec2::X };
        return Some((0.0, n));
    }
    let b = m.dot(d);
    if b >= 0.0 {
        return None;
    }
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    let s = -b - disc.sqrt();
    // (hit − centre) / r, normalised rather than divided: for a subnormal r the division
    // overflows (fuzz/crowd_ffi: an agent of radius 1e-45 at a box corner got NaN normals).
    let n = (m + d * s)
        .try_normalize()
        .or_else(|| m.try_normalize())
        .unwrap_or(-d);
    Some((s.max(0.0), n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64_box_distance(p: (f64, f64), c: (f64, f64), h: (f64, f64)) -> f64 {
        let (qx, qz) = ((p.0 - c.0).abs() - h.0, (p.1 - c.1).abs() - h.1);
        let out = (qx.max(0.0).powi(2) + qz.max(0.0).powi(2)).sqrt();
        out + qx.max(qz).min(0.0)
    }

    #[test]
    fn box_distance_matches_an_f64_reference() {
        let ob = Obstacle::Box {
            min: Vec3::new(-1.0, 0.0, -2.0),
            max: Vec3::new(3.0, 0.0, 1.0),
        };
        let s = ob.shape().unwrap();
        for i in -20..20 {
            for j in -20..20 {
                let p = Vec2::new(i as f32 * 0.37, j as f32 * 0.41);
                let c = s.contact(p);
                let r = f64_box_distance((p.x as f64, p.y as f64), (1.0, -0.5), (2.0, 1.5));
                assert!((c.distance as f64 - r).abs() < 1e-5, "{p:?}");
                // The closest point is on the surface and p = point + normal * distance.
                assert!(s.contact(c.point).distance.abs() < 1e-4);
                assert!((c.normal.length() - 1.0).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn rays_hit_the_grown_circle_where_geometry_says() {
        let s = Obstacle::Circle {
            center: Vec3::new(5.0, 0.0, 0.0),
            radius: 1.0,
        }
        .shape()
        .unwrap();
        let (t, n) = s.ray(Vec2::ZERO, Vec2::X, 0.5, 100.0).unwrap();
        assert!((t - 3.5).abs() < 1e-5);
        assert!((n - Vec2::new(-1.0, 0.0)).length() < 1e-5);
        assert!(s.ray(Vec2::ZERO, Vec2::Y, 0.5, 100.0).is_none());
        assert!(s.ray(Vec2::ZERO, Vec2::X, 0.5, 3.0).is_none());
    }

    #[test]
    fn oriented_box_ray_and_contact_agree() {
        let s = Obstacle::OrientedBox {
            center: Vec3::new(0.0, 0.0, 4.0),
            half_x: 2.0,
            half_z: 0.5,
            yaw: 0.3,
        }
        .shape()
        .unwrap();
        for k in 0..64 {
            let a = k as f32 * core::f32::consts::TAU / 64.0;
            let dir = Vec2::new(a.sin(), a.cos());
            if let Some((t, n)) = s.ray(Vec2::ZERO, dir, 0.4, 50.0) {
                let c = s.contact(dir * t);
                assert!((c.distance - 0.4).abs() < 1e-3, "{k} {c:?}");
                assert!((c.normal - n).length() < 1e-2, "{k}");
            }
        }
    }

    /// Least contact distance over 4 001 points of the segment, in f64 (the sampled minimum
    /// is at most the exact one plus half a sample spacing).
    fn sampled_segment_distance(s: &Shape, a: Vec2, b: Vec2) -> (f64, f64) {
        let n = 4000;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            let t = i as f64 / n as f64;
            let p = a.as_dvec2() * (1.0 - t) + b.as_dvec2() * t;
            // The rounded box's distance in f64 (local frame, as `contact` computes it).
            let (ax, az) = (s.axis.x as f64, s.axis.y as f64);
            let d = p - s.center.as_dvec2();
            let l = (d.x * ax + d.y * az, -d.x * az + d.y * ax);
            let (qx, qz) = (l.0.abs() - s.half.x as f64, l.1.abs() - s.half.y as f64);
            let out = (qx.max(0.0).powi(2) + qz.max(0.0).powi(2)).sqrt();
            best = best.min(out + qx.max(qz).min(0.0) - s.round as f64);
        }
        (best, a.distance(b) as f64 / n as f64 / 2.0)
    }

    #[test]
    fn segment_distance_matches_a_sampled_f64_reference() {
        let shapes = [
            Obstacle::Box {
                min: Vec3::new(-1.0, 0.0, -2.0),
                max: Vec3::new(3.0, 0.0, 1.0),
            },
            Obstacle::OrientedBox {
                center: Vec3::new(0.5, 0.0, 0.2),
                half_x: 1.5,
                half_z: 0.4,
                yaw: 0.7,
            },
            Obstacle::Circle {
                center: Vec3::new(1.0, 0.0, -0.5),
                radius: 1.2,
            },
            Obstacle::Wall {
                a: Vec3::new(-2.0, 0.0, 1.0),
                b: Vec3::new(2.5, 0.0, -1.5),
            },
        ];
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 40) as f32 / (1u64 << 24) as f32 * 12.0 - 6.0
        };
        for ob in shapes {
            let s = ob.shape().unwrap();
            for _ in 0..400 {
                let (a, b) = (Vec2::new(next(), next()), Vec2::new(next(), next()));
                let got = s.segment_distance(a, b) as f64;
                let (sampled, slack) = sampled_segment_distance(&s, a, b);
                if sampled <= 0.0 {
                    // Touching or crossing: the exact distance says so too.
                    assert!(got <= 1e-5, "{ob:?} {a} {b}: {got} vs {sampled}");
                } else {
                    assert!(got <= sampled + 1e-5, "{ob:?} {a} {b}: {got} > {sampled}");
                    assert!(
                        got >= sampled - slack - 1e-5,
                        "{ob:?} {a} {b}: {got} < {sampled}"
                    );
                }
                // A zero-length segment outside is a point: its contact distance.
                let c = s.contact(a).distance;
                if c > 0.0 {
                    assert!((s.segment_distance(a, a) - c).abs() < 1e-5, "{ob:?} {a}");
                }
            }
        }
    }

    #[test]
    fn degenerate_obstacles_are_refused() {
        assert!(Obstacle::Circle {
            center: Vec3::ZERO,
            radius: 0.0
        }
        .shape()
        .is_none());
        assert!(Obstacle::Wall {
            a: Vec3::ONE,
            b: Vec3::ONE
        }
        .shape()
        .is_none());
        assert!(Obstacle::Box {
            min: Vec3::ONE,
            max: Vec3::ZERO
        }
        .shape()
        .is_none());
    }

    #[test]
    fn a_subnormal_radius_gives_unit_normals_at_corners() {
        // Found by fuzz/crowd_ffi: an agent of radius 1e-45 walking at a box corner hit the
        // corner disc of that radius, and the normal (hit − corner) / r divided by a
        // subnormal: NaN hit points and normals reached wf_crowd_read_hits.
        let b = Obstacle::Box {
            min: Vec3::new(0.0, 0.0, 0.0),
            max: Vec3::new(10.0, 0.0, 10.0),
        }
        .shape()
        .unwrap();
        for grow in [1e-45f32, 1e-40, 1e-30, 1e-8] {
            for k in -50..=50 {
                for (o, d) in [
                    (Vec2::new(13.0, 13.0), Vec2::new(-1.0, -1.0)),
                    (Vec2::new(-3.0, 13.0), Vec2::new(1.0, -1.0)),
                    (Vec2::new(13.0, 10.0), Vec2::new(-1.0, 0.0)),
                ] {
                    let o = o + Vec2::new(k as f32 * 1e-7, -(k as f32) * 3e-8);
                    if let Some((s, n)) = b.ray(o, d.normalize(), grow, 100.0) {
                        assert!(s.is_finite() && n.is_finite(), "{grow} {o}: {s} {n}");
                        assert!(
                            (n.length() - 1.0).abs() < 1e-5,
                            "{grow} {o}: |n| {}",
                            n.length()
                        );
                    }
                }
            }
        }
    }

    /// The surface of `s` as an f64 polyline, counter-clockwise: each face, then its corner's
    /// arc in 64 pieces, from the core corner (h.x, −h.y); points in world coordinates. A wall
    /// is given a thickness of 2 mm, so that its two sides are apart.
    fn f64_outline(s: &Shape) -> Vec<(f64, f64)> {
        let (hx, hz, r) = (s.half.x as f64, (s.half.y as f64).max(1e-3), s.round as f64);
        let (ax, az) = (s.axis.x as f64, s.axis.y as f64);
        let (cx, cz) = (s.center.x as f64, s.center.y as f64);
        let world = |x: f64, z: f64| (cx + ax * x - az * z, cz + az * x + ax * z);
        let mut pts = Vec::new();
        // The four corners, each with the normal angle its arc starts at.
        let corners = [(hx, -hz), (hx, hz), (-hx, hz), (-hx, -hz)];
        for (k, &(x, z)) in corners.iter().enumerate() {
            let start = (k as f64 - 1.0) * core::f64::consts::FRAC_PI_2;
            for i in 0..=64 {
                let a = start + core::f64::consts::FRAC_PI_2 * i as f64 / 64.0;
                pts.push(world(x + r * a.cos(), z + r * a.sin()));
            }
        }
        pts
    }

    /// Arc length along the closed polyline to the point of it nearest `p`, and the perimeter.
    fn f64_arc_at(pts: &[(f64, f64)], p: (f64, f64)) -> (f64, f64) {
        let (mut walked, mut best, mut at) = (0.0f64, f64::INFINITY, 0.0);
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let (dx, dz) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dz * dz).sqrt();
            let t = if len > 0.0 {
                (((p.0 - a.0) * dx + (p.1 - a.1) * dz) / (len * len)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (qx, qz) = (a.0 + dx * t - p.0, a.1 + dz * t - p.1);
            let d = (qx * qx + qz * qz).sqrt();
            if d < best {
                (best, at) = (d, walked + t * len);
            }
            walked += len;
        }
        (at, walked)
    }

    proptest::proptest! {
        /// `distance` is `contact(p).distance`, bit for bit, for every kind of shape, at
        /// points inside, outside and on the core box's axes.
        #[test]
        fn distance_is_the_contact_distance_bit_for_bit(
            kind in 0u8..4,
            hx in 0.05f32..3.0,
            hz in 0.05f32..3.0,
            yaw in -3.2f32..3.2,
            x in -6.0f32..6.0,
            z in -6.0f32..6.0,
            on_axis in 0u8..3,
        ) {
            let c = Vec3::new(0.5, 0.0, -0.25);
            let o = match kind {
                0 => Obstacle::Circle { center: c, radius: hx },
                1 => Obstacle::OrientedBox { center: c, half_x: hx, half_z: hz, yaw },
                2 => Obstacle::Box { min: c, max: c + Vec3::new(hx, 0.0, hz) },
                _ => Obstacle::Wall { a: c, b: c + Vec3::new(hx * yaw.cos(), 0.0, hz * yaw.sin()) },
            };
            let s = o.shape().unwrap();
            let p = match on_axis {
                0 => Vec2::new(x, z),
                1 => Vec2::new(c.x, z),
                _ => Vec2::new(x, c.z),
            };
            proptest::prop_assert_eq!(s.distance(p).to_bits(), s.contact(p).distance.to_bits());
        }
    }

    proptest::proptest! {
        /// `way_round` against an f64 reference: the counter-clockwise polyline of the
        /// surface, the arc lengths of the surface points of `from` and `to` along it, and the
        /// shorter way between them (cases within a hundredth of the perimeter of a tie, or of
        /// the same point, are skipped: the polyline's chords differ from the arcs there).
        #[test]
        fn way_round_goes_the_shorter_way_as_an_f64_outline_says(
            kind in 0u8..3,
            hx in 0.05f32..3.0,
            hz in 0.05f32..3.0,
            yaw in -3.2f32..3.2,
            (fa, fd) in (-3.2f32..3.2, 0.0f32..2.0),
            (ta, td) in (-3.2f32..3.2, 0.0f32..2.0),
        ) {
            let center = Vec3::new(1.5, 0.0, -2.0);
            let ob = match kind {
                0 => Obstacle::Circle { center, radius: hx },
                1 => Obstacle::OrientedBox { center, half_x: hx, half_z: hz, yaw },
                _ => Obstacle::Wall {
                    a: center - Vec3::new(hx, 0.0, hz),
                    b: center + Vec3::new(hx, 0.0, hz),
                },
            };
            let s = ob.shape().unwrap();
            // Points round the centre, out to about twice the bounding circle (inside a box,
            // too).
            let at = |a: f32, d: f32| {
                let dir = Vec2::new(a.cos(), a.sin());
                s.center + dir * (d * s.bounding_radius() + 0.3 * d.max(0.0))
            };
            let (from, to) = (at(fa, fd), at(ta, td));
            let pts = f64_outline(&s);
            // Each point's surface point (as `contact` picks it where two are nearest, inside
            // a box or on a wall), 5 mm out along its normal: on a wall, nearer that side.
            let out = |p: Vec2| {
                let c = s.contact(p);
                let q = c.point + c.normal * 5e-3;
                (q.x as f64, q.y as f64)
            };
            let (u_from, total) = f64_arc_at(&pts, out(from));
            let (u_to, _) = f64_arc_at(&pts, out(to));
            let ahead = (u_to - u_from).rem_euclid(total);
            proptest::prop_assume!((ahead - 0.5 * total).abs() > 0.01 * total);
            proptest::prop_assume!(ahead.min(total - ahead) > 0.01 * total);
            let way = s.way_round(from, to);
            let n = s.contact(from).normal;
            let ccw = Vec2::new(-n.y, n.x);
            proptest::prop_assert!((way.length() - 1.0).abs() < 1e-5);
            proptest::prop_assert!(way.dot(n).abs() < 1e-5);
            proptest::prop_assert_eq!(way.dot(ccw) > 0.0, ahead < 0.5 * total);
        }
    }

    #[test]
    fn way_round_on_a_box_goes_round_the_nearer_corner() {
        // A 2 × 1 box: from the middle of its bottom face to points on its other faces.
        let s = Obstacle::Box {
            min: Vec3::new(-1.0, 0.0, -0.5),
            max: Vec3::new(1.0, 0.0, 0.5),
        }
        .shape()
        .unwrap();
        let from = Vec2::new(0.2, -0.8);
        // The right face: round the right corner (+x along the bottom face).
        assert_eq!(s.way_round(from, Vec2::new(1.3, 0.0)), Vec2::new(1.0, 0.0));
        // The left face: round the left corner.
        assert_eq!(
            s.way_round(from, Vec2::new(-1.3, 0.0)),
            Vec2::new(-1.0, 0.0)
        );
        // The top face, right of the mirror point of `from` (x = −0.2): round the right, which
        // is the shorter (0.8 + 1 + 1.1 = 2.9 against 1.2 + 1 + 0.9 = 3.1); left of it, the left.
        assert_eq!(s.way_round(from, Vec2::new(-0.1, 0.3)), Vec2::new(1.0, 0.0));
        assert_eq!(
            s.way_round(from, Vec2::new(-0.3, 0.3)),
            Vec2::new(-1.0, 0.0)
        );
        // A target inside, nearest the right face.
        assert_eq!(s.way_round(from, Vec2::new(0.8, 0.1)), Vec2::new(1.0, 0.0));
    }
}
