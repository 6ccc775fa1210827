"""The web chat page (`/chat`) and its one-tag embed (`/widget.js`): static files, no CDN, work offline."""

from __future__ import annotations

import html
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

STATIC = Path(__file__).resolve().parent / "static"


async def chat_page(request: Request) -> Response:
    title = html.escape(request.app.state.service.runner.agent.spec.name)
    page = (STATIC / "chat.html").read_text(encoding="utf-8").replace("{{title}}", title)
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


async def widget_js(request: Request) -> Response:
    return Response((STATIC / "widget.js").read_text(encoding="utf-8"), media_type="text/javascript",
                    headers={"Cache-Control": "public, max-age=300"})
