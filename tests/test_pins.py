"""What the Docker image installs is pinned: base images to versions, Python packages to the
lock files (versions and hashes), and the lock files agree with pyproject.toml (after a change
of dependencies, `make lock` updates them)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def pins(lock: str) -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of a `--generate-hashes` lock file."""
    out: dict[str, tuple[str, int]] = {}
    name = None
    for line in (ROOT / lock).read_text().splitlines():
        if match := re.match(r"([A-Za-z0-9._-]+)==([^ ;\\]+)", line):
            name = canonicalize_name(match[1])
            out[name] = (match[2], 0)
        elif line.strip().startswith("--hash=sha256:") and name is not None:
            out[name] = (out[name][0], out[name][1] + 1)
    return out


@pytest.mark.parametrize(("lock", "requirements"), [
    ("requirements.lock", PYPROJECT["project"]["dependencies"]),
    ("requirements-build.lock", PYPROJECT["build-system"]["requires"])])
def test_the_lock_pins_every_requirement_with_hashes(lock: str, requirements: list[str]) -> None:
    pinned = pins(lock)
    assert pinned and all(hashes > 0 for _, hashes in pinned.values())
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{lock} does not pin {name}: run `make lock`"
        assert requirement.specifier.contains(pinned[name][0]), \
            f"{lock} pins {name}=={pinned[name][0]}, pyproject wants {text}: run `make lock`"


def test_the_image_installs_from_the_locks_on_pinned_base_images() -> None:
    bases = re.findall(r"^FROM (\S+)", DOCKERFILE, re.MULTILINE)
    assert bases and all(re.fullmatch(r"(python|node):\d+\.\d+\.\d+-\S+", b) for b in bases)
    assert "pip install --require-hashes -r requirements-build.lock" in DOCKERFILE
    assert "pip install --require-hashes -r /tmp/requirements.lock" in DOCKERFILE
    assert "pip install --no-deps /tmp/wheels/" in DOCKERFILE  # the wheel adds nothing else
