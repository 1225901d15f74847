//! A tiny SVG writer for the tour's pictures: world-space 2D drawing with automatic fit.
// Each tour part uses a different subset of the drawing calls.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::Path;

/// A picture in world units; `save` fits everything drawn into the image, y up.
pub struct Svg {
    title: String,
    width: f32,
    height: f32,
    items: Vec<Item>,
    min: (f32, f32),
    max: (f32, f32),
}

enum Item {
    Polyline {
        pts: Vec<(f32, f32)>,
        stroke: String,
        width: f32,
        dash: bool,
    },
    Circle {
        c: (f32, f32),
        r: f32,
        fill: String,
        stroke: String,
    },
    Dot {
        c: (f32, f32),
        px: f32,
        fill: String,
    },
    Text {
        at: (f32, f32),
        text: String,
        px: f32,
        fill: String,
    },
    Legend {
        text: String,
        color: String,
    },
}

impl Svg {
    /// An empty picture of `width × height` pixels.
    pub fn new(title: &str, width: f32, height: f32) -> Self {
        Self {
            title: title.into(),
            width,
            height,
            items: Vec::new(),
            min: (f32::INFINITY, f32::INFINITY),
            max: (f32::NEG_INFINITY, f32::NEG_INFINITY),
        }
    }

    fn grow(&mut self, p: (f32, f32), pad: f32) {
        self.min = (self.min.0.min(p.0 - pad), self.min.1.min(p.1 - pad));
        self.max = (self.max.0.max(p.0 + pad), self.max.1.max(p.1 + pad));
    }

    /// A polyline in world units; `width` is in pixels.
    pub fn polyline(&mut self, pts: &[(f32, f32)], stroke: &str, width: f32) {
        self.polyline_styled(pts, stroke, width, false);
    }

    /// A dashed polyline (control polygons, FOV cones).
    pub fn dashed(&mut self, pts: &[(f32, f32)], stroke: &str, width: f32) {
        self.polyline_styled(pts, stroke, width, true);
    }

    fn polyline_styled(&mut self, pts: &[(f32, f32)], stroke: &str, width: f32, dash: bool) {
        for &p in pts {
            self.grow(p, 0.0);
        }
        self.items.push(Item::Polyline {
            pts: pts.to_vec(),
            stroke: stroke.into(),
            width,
            dash,
        });
    }

    /// A circle of world radius `r` (obstacles, agents).
    pub fn circle(&mut self, c: (f32, f32), r: f32, fill: &str, stroke: &str) {
        self.grow(c, r);
        self.items.push(Item::Circle {
            c,
            r,
            fill: fill.into(),
            stroke: stroke.into(),
        });
    }

    /// A dot of `px` pixels radius (samples, markers).
    pub fn dot(&mut self, c: (f32, f32), px: f32, fill: &str) {
        self.grow(c, 0.0);
        self.items.push(Item::Dot {
            c,
            px,
            fill: fill.into(),
        });
    }

    /// A label at a world position.
    pub fn text(&mut self, at: (f32, f32), text: &str, px: f32, fill: &str) {
        self.items.push(Item::Text {
            at,
            text: text.into(),
            px,
            fill: fill.into(),
        });
    }

    /// A legend entry (drawn top-left, in order).
    pub fn legend(&mut self, text: &str, color: &str) {
        self.items.push(Item::Legend {
            text: text.into(),
            color: color.into(),
        });
    }

    /// Writes the picture to `path`.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let margin = 30.0;
        // Room for the title and the legend above the drawing, so nothing is drawn over them.
        let legends = self
            .items
            .iter()
            .filter(|i| matches!(i, Item::Legend { .. }))
            .count();
        let top = 40.0 + 16.0 * legends as f32;
        let (w, h) = (self.width, self.height);
        let span_x = (self.max.0 - self.min.0).max(1e-6);
        let span_y = (self.max.1 - self.min.1).max(1e-6);
        let scale = ((w - 2.0 * margin) / span_x).min((h - margin - top) / span_y);
        let ox = margin + ((w - 2.0 * margin) - span_x * scale) / 2.0;
        let oy = top + ((h - margin - top) - span_y * scale) / 2.0;
        let map = |p: (f32, f32)| {
            (
                ox + (p.0 - self.min.0) * scale,
                oy + (self.max.1 - p.1) * scale,
            )
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
        );
        let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fcfcfa"/>"##);
        let _ = writeln!(
            s,
            r##"<text x="{margin}" y="24" font-size="16" fill="#222">{}</text>"##,
            escape(&self.title)
        );
        let mut legend_y = 54.0;
        for item in &self.items {
            match item {
                Item::Polyline {
                    pts,
                    stroke,
                    width,
                    dash,
                } => {
                    let mut d = String::new();
                    for &p in pts {
                        let (x, y) = map(p);
                        let _ = write!(d, "{x:.2},{y:.2} ");
                    }
                    let dash = if *dash {
                        r#" stroke-dasharray="5,4""#
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        r#"<polyline points="{d}" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-linejoin="round"{dash}/>"#
                    );
                }
                Item::Circle { c, r, fill, stroke } => {
                    let (x, y) = map(*c);
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{fill}" stroke="{stroke}"/>"#,
                        r * scale
                    );
                }
                Item::Dot { c, px, fill } => {
                    let (x, y) = map(*c);
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{x:.2}" cy="{y:.2}" r="{px}" fill="{fill}"/>"#
                    );
                }
                Item::Text { at, text, px, fill } => {
                    let (x, y) = map(*at);
                    let _ = writeln!(
                        s,
                        r#"<text x="{x:.2}" y="{y:.2}" font-size="{px}" fill="{fill}">{}</text>"#,
                        escape(text)
                    );
                }
                Item::Legend { text, color } => {
                    let _ = writeln!(
                        s,
                        r#"<rect x="{margin}" y="{:.1}" width="14" height="4" fill="{color}"/><text x="{:.1}" y="{:.1}" font-size="12" fill="{color}">{}</text>"#,
                        legend_y - 4.0,
                        margin + 20.0,
                        legend_y,
                        escape(text)
                    );
                    legend_y += 16.0;
                }
            }
        }
        s.push_str("</svg>\n");
        std::fs::write(path, s)
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
