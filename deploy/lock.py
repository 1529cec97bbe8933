"""``requirements.lock``: the runtime dependencies of ``pyproject.toml``, every one pinned, with
everything they pull in, as installed in this environment (Linux, CPython 3.11, as the image).

    python deploy/lock.py            write requirements.lock
    python deploy/lock.py --check    exit 1 when the file is not what would be written

The Dockerfile installs this file first, then the service's wheel with ``--no-deps``, so an
image built next month holds what the tests ran against. Regenerate after changing
``[project] dependencies`` (and installing them: ``pip install -e .``);
``tests/test_deployment.py`` checks that the two agree."""

from __future__ import annotations

import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
HEADER = """\
# The service's runtime dependencies, pinned, with everything they pull in (Linux, CPython 3.11).
# Made by `python deploy/lock.py` from pyproject.toml's [project] dependencies as installed;
# the Dockerfile installs it before the service itself (pip install --no-deps).
"""


def runtime_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(line) for line in project["dependencies"]]


#: The image's interpreter, Debian bookworm's python3: a dependency its markers ask for (redis
#: wants async-timeout before 3.11.3) is pinned too, though this environment may not need it.
IMAGE_PYTHON = {"python_full_version": "3.11.2", "implementation_version": "3.11.2"}


def closure(requirements: list[Requirement]) -> dict[str, str]:
    """Each distribution the requirements need, here or in the image, by canonical name: its
    version installed here."""
    environments: list[dict[str, str]] = [dict(default_environment()),
                                          {**default_environment(), **IMAGE_PYTHON}]
    pinned: dict[str, str] = {}
    pending = [(requirement, frozenset[str]()) for requirement in requirements]
    while pending:
        requirement, extras = pending.pop()
        marker_env = [{**environment, "extra": extra}
                      for environment in environments for extra in extras or {""}]
        if requirement.marker and not any(requirement.marker.evaluate(env)
                                          for env in marker_env):
            continue
        name = canonicalize_name(requirement.name)
        seen_extras = pinned.get(f"{name}[]", "")
        wanted = set(requirement.extras) - set(filter(None, seen_extras.split(",")))
        if name in pinned and not wanted:
            continue
        try:
            distribution = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"{requirement} is needed (by the image's Python, at least) but "
                             f"not installed here: pip install '{requirement}', then lock "
                             "again") from None
        pinned[name] = distribution.version
        pinned[f"{name}[]"] = ",".join(sorted(set(requirement.extras)
                                              | set(filter(None, seen_extras.split(",")))))
        for line in distribution.requires or []:
            pending.append((Requirement(line), frozenset(requirement.extras)))
    return {name: version for name, version in pinned.items() if not name.endswith("[]")}


def render() -> str:
    pins = closure(runtime_requirements())
    return HEADER + "".join(f"{name}=={pins[name]}\n" for name in sorted(pins))


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if LOCK.read_text() != text:
            print("requirements.lock is out of date: run python deploy/lock.py", file=sys.stderr)
            return 1
        return 0
    LOCK.write_text(text)
    print(f"wrote {LOCK} ({text.count('==')} pins)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
