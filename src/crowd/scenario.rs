//! Built-in scenes.
