"""The HTTP edge: Flask, flask-smorest and marshmallow live here and nowhere else
(docs/architecture.md, principle 7). ``app.create_app`` builds the application; ``problems`` maps every error
to RFC 9457; ``openapi`` writes the committed spec."""
