//! [`url::Url`] (WHATWG), feature `url`.

use super::{lossless, meaning_losses, ConvertError, Converted, Loss};
use crate::{SchemeKind, Url};

/// The schemes WHATWG calls special, whose rules it knows.
const SPECIAL: [&str; 6] = ["ftp", "file", "http", "https", "ws", "wss"];

impl Url {
    /// This URL as a [`url::Url`], with what WHATWG cannot hold or reads
    /// differently.
    ///
    /// # Errors
    /// [`ConvertError::Rejected`] when WHATWG rejects the text.
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{convert::Loss, Url};
    /// let ours = Url::parse("ftp://@host.dom/pub;type=i")?;
    /// let c = ours.to_whatwg()?;
    /// assert_eq!(c.value.as_str(), "ftp://host.dom/pub;type=i");
    /// assert_eq!(c.losses[..2], [Loss::EmptyUser, Loss::FtpTypecode]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_whatwg(&self) -> Result<Converted<url::Url>, ConvertError> {
        let value = url::Url::parse(self.as_str()).map_err(|e| ConvertError::Rejected(e.to_string()))?;
        let mut losses = Vec::new();
        if self.user() == Some("") {
            losses.push(Loss::EmptyUser);
        }
        if self.password() == Some("") {
            losses.push(Loss::EmptyPassword);
        }
        meaning_losses(self, &mut losses);
        if self.kind() != SchemeKind::Other && !SPECIAL.contains(&self.scheme()) {
            losses.push(Loss::UnknownScheme(self.kind()));
        }
        if value.as_str() != self.as_str() {
            losses.push(Loss::Rewritten(value.as_str().to_owned()));
        }
        Ok(Converted { value, losses })
    }

    /// The RFC 1738 reading of a [`url::Url`]: its text, parsed strictly.
    ///
    /// # Errors
    /// [`ConvertError::NotRfc1738`] when the text is not an RFC 1738 URL
    /// (WHATWG keeps `~`, `|` and other characters §2.2 calls unsafe).
    pub fn from_whatwg(url: &url::Url) -> Result<Url, ConvertError> {
        Url::parse(url.as_str()).map_err(ConvertError::NotRfc1738)
    }
}

/// Fails with [`ConvertError::Lossy`] unless nothing is lost; use
/// [`Url::to_whatwg`] to convert anyway and see what is lost.
impl TryFrom<&Url> for url::Url {
    type Error = ConvertError;
    fn try_from(url: &Url) -> Result<url::Url, ConvertError> {
        lossless(url.to_whatwg()?)
    }
}

impl TryFrom<&url::Url> for Url {
    type Error = ConvertError;
    fn try_from(url: &url::Url) -> Result<Url, ConvertError> {
        Url::from_whatwg(url)
    }
}
