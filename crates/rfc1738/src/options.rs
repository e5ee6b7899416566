//! `ParseOptions`: which deviations from §5 a parse accepts, each reported
//! as a [`Warning`] instead of failing.
//!
//! Strict is the default: [`Url::parse`](crate::Url::parse) and [`crate::validate`] accept
//! exactly the grammar. [`Url::parse_with`](crate::Url::parse_with) takes options, one per
//! deviation that real-world data is full of; every accepted deviation
//! becomes a warning with its offset, so nothing is accepted silently.
//!
//! The lenient handling sits where the strict parser raises its error, so
//! a strict parse does not pay for it.

use crate::warning::{Warning, WarningKind};
use core::cell::{Cell, RefCell};

/// Which deviations from the grammar a parse accepts.
///
/// `ParseOptions::default()` is strict: every option off. Each option
/// names what it accepts and the [`WarningKind`] it reports.
///
/// An upper-case scheme needs no option: §2.1 asks interpreters to accept
/// it, so every parse does, and [`Url::parse_with`](crate::Url::parse_with) reports it as
/// [`WarningKind::UppercaseScheme`] even with every option off.
///
/// A text the grammar accepts is read exactly as a strict parse reads it,
/// whatever the options. For a scheme RFC 1738 does not define, whose part
/// may be a login or opaque (§5 `schemepart`), a text with unsafe
/// characters or bare `%` is read as a strict parse reads it once they are
/// encoded: the way its normal form is read ([`Url::normalize`](crate::Url::normalize)).
///
/// # Examples
/// ```
/// use rfc1738::{ParseOptions, Url, WarningKind};
/// let opts = ParseOptions { unsafe_chars: true, ..ParseOptions::default() };
/// let (url, w) = Url::parse_with("ftp://h.example/~me/x", &opts)?;
/// assert_eq!(url.ftp().unwrap().cwd().collect::<Vec<_>>(), ["~me"]);
/// assert_eq!((w[0].offset(), w[0].kind()), (16, WarningKind::UnsafeChar));
/// assert!(Url::parse_with("http://a_b/", &opts).is_err()); // not this option
/// # Ok::<(), rfc1738::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(clippy::struct_excessive_bools)] // one documented switch per deviation
pub struct ParseOptions {
    /// Accept the §2.2 unsafe characters space, `{`, `}`, `|`, `\`, `^`,
    /// `~`, `[`, `]` and `` ` `` unencoded wherever an encoded octet may
    /// stand ([`WarningKind::UnsafeChar`]). Not in a host, a port, a scheme
    /// or a news group name, which allow no escapes either. `<`, `>` and
    /// `"` stay errors: they delimit URLs in text (§2.2), so a raw one is
    /// a sign of a badly extracted URL or of markup injected into it. `#`
    /// always ends the URL, and `%` always starts an escape.
    pub unsafe_chars: bool,
    /// Accept `"_"` in host names ([`WarningKind::UnderscoreInHost`]),
    /// which DNS data has although `hostname` (§3.1) does not allow it.
    pub underscore_in_host: bool,
    /// Accept a host name that ends with `"."`, the fully qualified form of
    /// DNS ([`WarningKind::TrailingDot`]). The host keeps its dot.
    pub trailing_dot: bool,
    /// Accept `":"` with no port after it (`http://h.example:/`,
    /// [`WarningKind::EmptyPort`]); the URL has no explicit port.
    pub empty_port: bool,
    /// Accept a user name and password in schemes whose grammar has only
    /// `hostport` (http §3.3, gopher, nntp, wais, prospero) or none (file)
    /// ([`WarningKind::DisallowedUser`]). [`Url::user`](crate::Url::user) and
    /// [`Url::password`](crate::Url::password) return them.
    pub user_in_any_scheme: bool,
    /// Accept `"/"` and `"?"` unencoded in a search (http §3.3, wais
    /// §3.9), as in `?url=http://x/`
    /// ([`WarningKind::ReservedInSearch`]). Later specifications allow
    /// them there. A gopher search needs no option: a strict parse takes
    /// them (§3.4.1: "Within the `<gopher-path>`, no characters are
    /// reserved").
    pub reserved_in_search: bool,
    /// Accept a `%` that is not followed by two hex digits (`100%`,
    /// `%u00e9`) as the character `%` itself ([`WarningKind::BarePercent`]);
    /// decoding keeps it, and the normal form writes it `%25`.
    pub bare_percent: bool,
    /// Read `https` by the generic syntax (§5 `otherurl`), as RFC 1738
    /// alone reads a scheme it does not define, instead of by http's
    /// rules (§3.3) with port 443, which its registration gives it
    /// (RFC 2818 §2.4). The URL's kind is then [`SchemeKind::Other`](crate::SchemeKind::Other)
    /// and it has no http view. Not a deviation, so no warning: a
    /// choice of which rules apply.
    pub generic_https: bool,
}

impl ParseOptions {
    /// Every option off: the grammar of §5, as [`Url::parse`](crate::Url::parse) reads it.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(rfc1738::ParseOptions::strict(), rfc1738::ParseOptions::default());
    /// ```
    #[must_use]
    pub const fn strict() -> ParseOptions {
        ParseOptions {
            unsafe_chars: false,
            underscore_in_host: false,
            trailing_dot: false,
            empty_port: false,
            user_in_any_scheme: false,
            reserved_in_search: false,
            bare_percent: false,
            generic_https: false,
        }
    }

    /// Every deviation accepted: every option on but
    /// [`ParseOptions::generic_https`], which is not a deviation.
    ///
    /// # Examples
    /// ```
    /// use rfc1738::{ParseOptions, Url};
    /// let (url, warnings) = Url::parse_with("HTTP://u@My_Host.example.:/a b?x=/y", &ParseOptions::lenient())?;
    /// assert_eq!(url.host(), Some("My_Host.example."));
    /// let kinds: Vec<&str> = warnings.iter().map(|w| w.kind().id()).collect();
    /// assert_eq!(kinds, ["uppercase-scheme", "disallowed-user", "underscore-in-host",
    ///                    "trailing-dot", "empty-port", "unsafe-char", "reserved-in-search"]);
    /// # Ok::<(), rfc1738::ParseError>(())
    /// ```
    #[must_use]
    pub const fn lenient() -> ParseOptions {
        ParseOptions {
            unsafe_chars: true,
            underscore_in_host: true,
            trailing_dot: true,
            empty_port: true,
            user_in_any_scheme: true,
            reserved_in_search: true,
            bare_percent: true,
            generic_https: false,
        }
    }

    /// Whether every option is off.
    #[must_use]
    pub fn is_strict(&self) -> bool {
        *self == ParseOptions::strict()
    }
}

/// What a lenient parse carries: its options and the warnings so far.
/// The parser holds it by shared reference, so warnings go in a `RefCell`.
pub(crate) struct Lenient {
    pub(crate) opts: ParseOptions,
    warnings: RefCell<Vec<Warning>>,
    /// Warnings past [`MAX_WARNINGS`]: how many, and the offset of the first.
    omitted: Cell<(usize, usize)>,
}

/// The most warnings one parse keeps; the rest become one "and N more".
/// A run of one deviation (a thousand spaces) is one warning already, so
/// the bound holds memory to a few kilobytes whatever the input.
pub const MAX_WARNINGS: usize = 64;

/// Where a parse attempt started, to roll back to.
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    warnings: usize,
    omitted: (usize, usize),
}

impl Lenient {
    pub(crate) fn new(opts: ParseOptions) -> Lenient {
        Lenient { opts, warnings: RefCell::new(Vec::new()), omitted: Cell::new((0, 0)) }
    }

    /// Records a warning. One right after the last of the same kind
    /// lengthens it (a run of spaces is one warning); past
    /// [`MAX_WARNINGS`] it is only counted.
    #[cold]
    pub(crate) fn warn(
        &self,
        offset: usize,
        kind: WarningKind,
        message: impl Into<std::borrow::Cow<'static, str>>,
    ) {
        self.push(Warning::new(offset, kind, message));
    }

    fn push(&self, w: Warning) {
        let mut warnings = self.warnings.borrow_mut();
        if let Some(last) = warnings.last_mut() {
            if last.kind() == w.kind() && last.offset() + last.len() == w.offset() {
                last.lengthen(w.len());
                return;
            }
        }
        if warnings.len() < MAX_WARNINGS {
            warnings.push(w);
            return;
        }
        let (count, first) = self.omitted.get();
        self.omitted.set((count + 1, if count == 0 { w.offset() } else { first }));
    }

    /// Where the warnings stand, to roll back to after a failed attempt.
    pub(crate) fn mark(&self) -> Mark {
        Mark { warnings: self.warnings.borrow().len(), omitted: self.omitted.get() }
    }

    /// Drops the warnings recorded after `mark`.
    pub(crate) fn rollback(&self, mark: Mark) {
        self.warnings.borrow_mut().truncate(mark.warnings);
        self.omitted.set(mark.omitted);
    }

    /// Takes the warnings of another parse attempt that succeeded.
    pub(crate) fn absorb(&self, other: Lenient) {
        let (count, first) = other.omitted.get();
        for w in other.warnings.into_inner() {
            self.push(w);
        }
        if count > 0 {
            let (mine, my_first) = self.omitted.get();
            self.omitted.set((mine + count, if mine == 0 { first } else { my_first }));
        }
    }

    /// The warnings, and one "and N more" when some were only counted.
    pub(crate) fn into_warnings(self) -> Vec<Warning> {
        let mut warnings = self.warnings.into_inner();
        let (count, first) = self.omitted.get();
        if count > 0 {
            warnings.push(Warning::new(
                first,
                WarningKind::More,
                format!("and {count} more warnings, not listed (at most {MAX_WARNINGS} are)"),
            ));
        }
        warnings
    }
}
