"""WSGI entry point: ``gunicorn service.wsgi:app``. Does not migrate; run
``python -m service migrate`` first (``python -m service`` does both)."""

from service.process import serving_app

app = serving_app()
