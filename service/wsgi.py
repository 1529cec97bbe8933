"""WSGI entry point: ``gunicorn service.wsgi:app``. Does not migrate; run
``python -m service migrate`` first (``python -m service`` does both)."""

from service.http.app import create_app
from service.process import settle

app = create_app()
settle()
