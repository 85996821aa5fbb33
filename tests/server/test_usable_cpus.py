"""The default worker count comes from the CPUs this process may use (settings.usable_cpus):
inside a container, its cgroup's CPU quota, not the host's CPUs. Each cgroup layout is a
folder laid out as the kernel shows it (v2 in a container's namespace or in the process's
own group, v1), read by the same code that reads /sys/fs/cgroup."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from brass.server import Settings
from brass.server.settings import cgroup_quota, usable_cpus

AFFINITY = len(os.sched_getaffinity(0))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize(("cpu_max", "cpus"), [
    ("200000 100000\n", 2), ("150000 100000\n", 2), ("50000 100000\n", 1), ("max 100000\n", None)])
def test_cgroup_v2_quota_in_a_containers_namespace(tmp_path: Path, cpu_max: str,
                                                   cpus: int | None) -> None:
    write(tmp_path / "cgroup" / "cpu.max", cpu_max)
    write(tmp_path / "self", "0::/\n")
    assert cgroup_quota(tmp_path / "cgroup", tmp_path / "self") == cpus


def test_cgroup_v2_quota_of_the_process_own_group(tmp_path: Path) -> None:
    write(tmp_path / "cgroup" / "cpu.max", "max 100000\n")  # the root: no quota
    write(tmp_path / "cgroup" / "system.slice" / "brass.service" / "cpu.max", "300000 100000\n")
    write(tmp_path / "self", "0::/system.slice/brass.service\n")
    assert cgroup_quota(tmp_path / "cgroup", tmp_path / "self") == 3


def test_cgroup_v1_quota(tmp_path: Path) -> None:
    write(tmp_path / "cgroup" / "cpu" / "cpu.cfs_quota_us", "100000\n")
    write(tmp_path / "cgroup" / "cpu" / "cpu.cfs_period_us", "100000\n")
    assert cgroup_quota(tmp_path / "cgroup", tmp_path / "none") == 1
    write(tmp_path / "cgroup" / "cpu" / "cpu.cfs_quota_us", "-1\n")
    assert cgroup_quota(tmp_path / "cgroup", tmp_path / "none") is None


def test_no_cgroup_means_the_cpus_the_process_may_run_on(tmp_path: Path) -> None:
    assert cgroup_quota(tmp_path, tmp_path / "none") is None
    assert usable_cpus(tmp_path, tmp_path / "none") == AFFINITY


def test_a_quota_below_the_cpus_sets_the_default_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "cpu.max", "100000 100000\n")
    assert usable_cpus(tmp_path, tmp_path / "none") == 1
    write(tmp_path / "cpu.max", f"{(AFFINITY + 8) * 100000} 100000\n")  # above: the CPUs
    assert usable_cpus(tmp_path, tmp_path / "none") == AFFINITY
    monkeypatch.delenv("BRASS_WORKERS", raising=False)
    assert Settings().workers == max(1, usable_cpus() - 1)  # this machine's own cgroup
