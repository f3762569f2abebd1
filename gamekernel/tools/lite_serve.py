"""`python -m gamekernel lite serve SITE [--port N]`: preview a built site on 127.0.0.1.

Any static host serves the site; the one thing it needs is the right types for Pyodide's files
(`.mjs` as JavaScript: browsers refuse a module worker otherwise; `.wasm` as application/wasm for
streaming compilation), which Python's own table lacks on some versions.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".whl": "application/zip", ".ipynb": "application/json"}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: a page load is hundreds of requests."""


def serve(site: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server of `site` on 127.0.0.1 (`port` 0: any free one), running in a daemon thread."""
    handler = functools.partial(SiteHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
