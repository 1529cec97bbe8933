"""The metrics directory of ``python -m service serve`` (``service/metrics_dir.py``): made or
emptied before the workers start, kept while any of them runs, removed with the master."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from service import metrics_dir


def test_the_operators_directory_is_emptied_of_an_earlier_runs_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "counter_123.db").write_bytes(b"an earlier run")
    (tmp_path / "notes.txt").write_text("the operator's own")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    assert metrics_dir.prepare() == tmp_path
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(tmp_path)


def test_a_fresh_directory_outlives_an_exiting_worker_and_goes_with_the_master() -> None:
    # A worker is forked from the master and leaves by sys.exit, as gunicorn's do.
    script = textwrap.dedent("""
        import os, sys
        from service import metrics_dir
        directory = metrics_dir.prepare()
        child = os.fork()
        if child == 0:
            sys.exit(0)
        os.waitpid(child, 0)
        print(directory, directory.is_dir())
    """)
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=60, env=env)
    directory, kept = done.stdout.split()
    assert kept == "True", "a worker's exit removed the directory"
    assert not Path(directory).exists()
