//! [`http::Uri`], feature `http`.

use super::{lossless, meaning_losses, ConvertError, Converted, Loss};
use crate::{SchemeKind, Url};

impl Url {
    /// This URL as an [`http::Uri`], with what it cannot hold or reads
    /// differently. A `Uri` has no fragment and no user fields.
    ///
    /// # Errors
    /// [`ConvertError::Rejected`] when `http` rejects the text (a scheme
    /// without `//`, such as `mailto:`).
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{convert::Loss, Url};
    /// let c = Url::parse("http://h.dom/a?b#frag")?.to_http_uri()?;
    /// assert_eq!(c.value.to_string(), "http://h.dom/a?b");
    /// assert_eq!(c.losses, [Loss::Fragment]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_http_uri(&self) -> Result<Converted<http::Uri>, ConvertError> {
        let text = self.without_fragment();
        let value: http::Uri =
            text.parse().map_err(|e: http::uri::InvalidUri| ConvertError::Rejected(e.to_string()))?;
        // `mailto:a@b.dom` parses as an authority (host `mailto`): not
        // this URL.
        if value.scheme_str() != Some(self.scheme()) {
            return Err(ConvertError::Rejected(format!("http::Uri reads {text:?} without its scheme")));
        }
        let mut losses = Vec::new();
        if self.user().is_some() {
            losses.push(Loss::UserInfo);
        }
        meaning_losses(self, &mut losses);
        if !matches!(self.kind(), SchemeKind::Http | SchemeKind::Https) && self.scheme() != "https" {
            losses.push(Loss::UnknownScheme(self.kind()));
        }
        if self.fragment().is_some() {
            losses.push(Loss::Fragment);
        }
        let written = value.to_string();
        if written != text {
            losses.push(Loss::Rewritten(written));
        }
        Ok(Converted { value, losses })
    }

    /// The RFC 1738 reading of an [`http::Uri`]: its text, parsed strictly.
    ///
    /// # Errors
    /// [`ConvertError::NotRfc1738`] when the text is not an RFC 1738 URL.
    pub fn from_http_uri(uri: &http::Uri) -> Result<Url, ConvertError> {
        Url::parse(&uri.to_string()).map_err(ConvertError::NotRfc1738)
    }
}

/// Fails with [`ConvertError::Lossy`] unless nothing is lost; use
/// [`Url::to_http_uri`] to convert anyway and see what is lost.
impl TryFrom<&Url> for http::Uri {
    type Error = ConvertError;
    fn try_from(url: &Url) -> Result<http::Uri, ConvertError> {
        lossless(url.to_http_uri()?)
    }
}

impl TryFrom<&http::Uri> for Url {
    type Error = ConvertError;
    fn try_from(uri: &http::Uri) -> Result<Url, ConvertError> {
        Url::from_http_uri(uri)
    }
}
