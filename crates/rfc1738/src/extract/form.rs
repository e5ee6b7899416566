//! How a URL was written in text: wrapped as the Appendix recommends,
//! in angle brackets, or bare.

use std::fmt;

/// How a URL was written in the text.
///
/// # Examples
///
/// ```
/// use rfc1738::extract::{find_iter, Form};
///
/// let forms: Vec<_> = find_iter("<URL:http://a.org/> <http://b.org/> http://c.org/").map(|m| m.form()).collect();
/// assert_eq!(forms, [Form::UrlPrefix, Form::Angle, Form::Bare]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `<URL:...>`, the wrapper the Appendix recommends.
    UrlPrefix,
    /// `<scheme:...>`, angle brackets without the `URL:` prefix.
    Angle,
    /// No wrapper.
    Bare,
}

impl Form {
    /// The name used in machine output: `url-prefix`, `angle` or `bare`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Form;
    ///
    /// assert_eq!(Form::UrlPrefix.as_str(), "url-prefix");
    /// assert_eq!(Form::Bare.to_string(), "bare");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::UrlPrefix => "url-prefix",
            Self::Angle => "angle",
            Self::Bare => "bare",
        }
    }

    /// Whether the URL was written inside `<` `>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rfc1738::extract::Form;
    ///
    /// assert!(Form::Angle.is_wrapped());
    /// assert!(!Form::Bare.is_wrapped());
    /// ```
    #[must_use]
    pub const fn is_wrapped(self) -> bool {
        !matches!(self, Self::Bare)
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
