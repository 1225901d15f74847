//! A small element tree over quick-xml for the test-case reader: names, text and children,
//! with typed look-ups whose errors name the element and the value.

use glam::Vec2;
use quick_xml::events::Event;
use quick_xml::Reader;

/// One XML element: local name, text, children.
#[derive(Debug, Default)]
pub struct Node {
    pub name: String,
    pub text: String,
    pub children: Vec<Node>,
}

/// A point or direction as a test case gives it: three numbers, or `<random>true</random>`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tuple {
    /// Given: (x, z) (y is height and ignored).
    At(Vec2),
    /// Chosen at random by the reader.
    Random,
}

impl Node {
    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The number in child `name`, if there is one.
    pub fn num(&self, name: &str) -> Result<Option<f32>, String> {
        match self.child(name) {
            None => Ok(None),
            Some(c) => {
                let t = c.text.trim();
                match t.parse::<f32>() {
                    Ok(v) if v.is_finite() => Ok(Some(v)),
                    _ => Err(format!(
                        "<{}><{name}>: \"{t}\" is not a finite number",
                        self.name
                    )),
                }
            }
        }
    }

    /// The number in child `name`, which must be there.
    pub fn need(&self, name: &str) -> Result<f32, String> {
        self.num(name)?
            .ok_or_else(|| format!("<{}> lacks <{name}>", self.name))
    }

    /// Whether child `name` holds `true` (absent: false).
    pub fn flag(&self, name: &str) -> Result<bool, String> {
        match self.child(name).map(|c| c.text.trim()) {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(t) => Err(format!(
                "<{}><{name}>: \"{t}\" is neither true nor false",
                self.name
            )),
        }
    }

    /// This element as an (x, y, z)-or-random tuple.
    pub fn tuple(&self) -> Result<Tuple, String> {
        if self.flag("random")? {
            return Ok(Tuple::Random);
        }
        let x = self.need("x")?;
        let z = self.need("z")?;
        Ok(Tuple::At(Vec2::new(x, z)))
    }

    /// This element as bounds (xmin, xmax, zmin, zmax): (min, max) on the XZ plane. Like
    /// SteerSuite, bounds given max first are taken as the box they span.
    pub fn bounds(&self) -> Result<(Vec2, Vec2), String> {
        let a = Vec2::new(self.need("xmin")?, self.need("zmin")?);
        let b = Vec2::new(self.need("xmax")?, self.need("zmax")?);
        Ok((a.min(b), a.max(b)))
    }
}

/// Parses `xml` and returns its `SteerBenchTestCase` element.
pub fn parse(xml: &str) -> Result<Node, String> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(true);
    let mut stack = vec![Node::default()];
    let unbalanced = || "unbalanced XML".to_string();
    loop {
        let at = reader.buffer_position();
        match reader
            .read_event()
            .map_err(|e| format!("XML error at byte {at}: {e}"))?
        {
            Event::Start(e) => stack.push(Node {
                name: e.local_name().as_ref().to_string(),
                ..Node::default()
            }),
            Event::Empty(e) => {
                let n = Node {
                    name: e.local_name().as_ref().to_string(),
                    ..Node::default()
                };
                stack.last_mut().ok_or_else(unbalanced)?.children.push(n);
            }
            Event::Text(t) => {
                let text = t.into_inner();
                stack
                    .last_mut()
                    .ok_or_else(unbalanced)?
                    .text
                    .push_str(&text);
            }
            Event::End(_) => {
                let n = stack.pop().ok_or_else(unbalanced)?;
                stack.last_mut().ok_or_else(unbalanced)?.children.push(n);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        return Err(unbalanced());
    }
    let root = stack.pop().ok_or_else(unbalanced)?;
    root.children
        .into_iter()
        .find(|n| n.name == "SteerBenchTestCase")
        .ok_or_else(|| "no <SteerBenchTestCase> element".into())
}
