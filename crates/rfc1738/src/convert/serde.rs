//! `serde`: [`Url`] and [`UrlRef`] as their text, feature `serde`.

use core::fmt;

use serde::de::{Error, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Url, UrlRef};

impl Serialize for Url {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for UrlRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

struct UrlVisitor;

impl Visitor<'_> for UrlVisitor {
    type Value = Url;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an RFC 1738 URL")
    }
    fn visit_str<E: Error>(self, v: &str) -> Result<Url, E> {
        Url::parse(v).map_err(E::custom)
    }
}

/// A URL read strictly from a string; the parse error, offset included,
/// is the deserializer's error.
impl<'de> Deserialize<'de> for Url {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Url, D::Error> {
        d.deserialize_str(UrlVisitor)
    }
}

/// Borrows the text, so only from a deserializer that lends its input
/// (`serde_json::from_str` on text without escapes).
impl<'de: 'a, 'a> Deserialize<'de> for UrlRef<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UrlRef<'a>, D::Error> {
        let text = <&'de str>::deserialize(d)?;
        UrlRef::parse(text).map_err(D::Error::custom)
    }
}
