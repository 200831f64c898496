"""Magic Football Online: the Django project (settings, URLs, ASGI and websocket routing)."""
