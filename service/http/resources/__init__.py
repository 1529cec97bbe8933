"""The HTTP resources (thin views: parse, call one use case, serialise)."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from . import admin, clubs, docs, door, events, games, public, sheets, stateless, web

# ``door``'s routes are the events' blueprint's (imported for them).
_ = door


def register_resources(app: Flask, api: Api) -> None:
    api.register_blueprint(stateless.blp)
    api.register_blueprint(games.blp)
    api.register_blueprint(sheets.blp)
    api.register_blueprint(events.blp)
    api.register_blueprint(clubs.blp)
    api.register_blueprint(admin.blp)
    api.register_blueprint(public.blp)
    app.register_blueprint(docs.assets)
    app.register_blueprint(web.page)
    app.register_blueprint(public.pages)
    for key, value in web.compression_settings().items():
        app.config.setdefault(key, value)
    web.compress.init_app(app)
