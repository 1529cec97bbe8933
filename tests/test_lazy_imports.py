"""What a gunicorn worker holds is what it imports: the master (``python -m service``) imports
gunicorn and nothing of the service, and a worker's app loads Alembic only to migrate and
reportlab only to print a sheet (``bench/bench_memory.py`` measures what that saves). Each
check runs in a fresh interpreter, since this one has imported everything already."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap


def _modules_after(code: str) -> set[str]:
    """The top-level packages in ``sys.modules`` once ``code`` has run, in a new interpreter."""
    script = textwrap.dedent(code) + textwrap.dedent("""
        import json, sys
        print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_gunicorn_master_imports_nothing_of_the_database() -> None:
    loaded = _modules_after("import service.__main__")
    assert "gunicorn" in loaded
    assert not loaded & {"sqlalchemy", "alembic", "flask", "reportlab", "psycopg"}


def test_a_worker_app_loads_neither_migrations_nor_pdf() -> None:
    loaded = _modules_after("""
        from service.http.app import create_app
        create_app({"DATABASE_URL": "sqlite://"})
    """)
    assert "sqlalchemy" in loaded and "flask" in loaded
    assert not loaded & {"alembic", "mako", "pygments", "reportlab", "PIL"}
