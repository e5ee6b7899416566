"""The exception of a URL that is not one: raised from Rust with its
arguments only, read and formatted when asked."""

from typing import Union


class ParseError(ValueError):
    """The text is not a URL of RFC 1738.

    Attributes: ``offset`` (the byte where no rule of §5 accepts the input),
    ``kind`` (the error's id, e.g. ``"user-not-allowed"``), ``rule`` (the
    §5 rule being matched), ``message`` and ``input``. ``str()`` shows the
    input with a caret under the offset.
    """

    # The arguments are (input, offset, kind, rule, message); the
    # attributes read them, so that raising one formats nothing.

    @property
    def input(self) -> Union[str, bytes]:
        """The text as given."""
        return self.args[0]

    @property
    def offset(self) -> int:
        """The byte where no rule of §5 accepts the input."""
        return self.args[1]

    @property
    def kind(self) -> str:
        """The error's id, e.g. ``"user-not-allowed"``."""
        return self.args[2]

    @property
    def rule(self) -> str:
        """The §5 rule being matched, e.g. ``"login"``."""
        return self.args[3]

    @property
    def message(self) -> str:
        """Why, in one lower-case line."""
        return self.args[4]

    def __str__(self) -> str:
        from rfc1738._rfc1738 import caret

        return caret(self.input, self.offset, self.rule, self.message)


ParseError.__module__ = "rfc1738"
