"""Brass: Birmingham online: rules engine (`brass.engine`), game server (`brass.server`)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("brass")
except PackageNotFoundError:  # run from a source folder that was never installed
    __version__ = "0+unknown"
