"""The build backend of the sdist: maturin's, after one check.

maturin needs Rust (cargo) to build the package from source. Without it,
maturin asks pip for a Python-packaged Rust toolchain, which is
downloaded from outside the package index and can fail far from the
cause (an SSL error, a missing download). Here a missing ``cargo`` stops
the build at once, saying what to install.
"""

import os
import shutil

import maturin
from maturin import build_sdist, get_requires_for_build_sdist  # noqa: F401 - a source tree needs no cargo

MESSAGE = (
    "rfc1738 is built from source with Rust, and no `cargo` is on PATH.\n"
    "Install Rust 1.88 or later (https://rustup.rs: curl --proto '=https' -sSf https://sh.rustup.rs | sh,\n"
    "or your system's rust and cargo packages), then install again; or install a built wheel\n"
    "(scripts/build-wheel in the repository makes one)."
)


def _check():
    cargo = os.environ.get("CARGO") or shutil.which("cargo")
    if not cargo:
        raise SystemExit(MESSAGE)


def get_requires_for_build_wheel(config_settings=None):
    _check()
    return maturin.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings=None):
    _check()
    return maturin.get_requires_for_build_editable(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _check()
    return maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _check()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _check()
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    _check()
    return maturin.prepare_metadata_for_build_editable(metadata_directory, config_settings)
