"""What the room's pages and its sockets both render, in one place: ``present`` turns a viewer's projection
into the context of the board, bracket, banner, prompts and cards; ``eventlog`` turns events into the log's
sentences in the reader's language. Views (``tournament/views``) and the real-time hub
(``tournament/realtime/html.py``) both use it, so a page and a pushed fragment can never disagree.
"""
