"""WSGI entry point: ``gunicorn service.wsgi:app``. Does not migrate; run
``python -m service migrate`` first (``python -m service`` does both)."""

from service.http.app import create_app

app = create_app()
