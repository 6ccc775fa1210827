"""The OpenAPI 3.1 document of the serving API (`GET /openapi.json`), written by hand from DESIGN §6."""

from __future__ import annotations

from typing import Any

_ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    text = {400: "bad request", 401: "missing or wrong API key", 404: "unknown session", 409: "session id taken",
            413: "body too large", 429: "rate limited (see Retry-After)",
            503: "store unavailable or conflict (retry with the same idempotency key)"}
    return {str(c): _json(_ERROR, text[c]) for c in codes}


SESSION_PATH = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string"}}


def document(agent_name: str) -> dict[str, Any]:
    turn_result = {"$ref": "#/components/schemas/TurnResult"}
    return {
        "openapi": "3.1.0",
        "info": {"title": f"Genie agent: {agent_name}", "version": "1",
                 "description": "Conversations with a Genie worksheet agent. When GENIE_API_KEYS is set, every "
                                "/v1 call needs 'Authorization: Bearer KEY'."},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": {"type": "object", "properties": {"error": {"type": "object", "properties": {
                    "message": {"type": "string"}, "type": {"type": "string"}, "code": {"type": "integer"}}}}},
                "State": {"type": "object", "properties": {"records": {"type": "array", "items": {"type": "object"}}}},
                "TurnResult": {"type": "object", "required": ["turn", "response", "acts", "state"], "properties": {
                    "turn": {"type": "integer"}, "response": {"type": "string"},
                    "acts": {"type": "array", "items": {"type": "object"}},
                    "state": {"$ref": "#/components/schemas/State"}}},
            },
        },
        "security": [{"bearer": []}],
        "paths": {
            "/v1/sessions": {"post": {
                "summary": "Start a conversation",
                "requestBody": {"required": False, "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"session_id": {"type": "string"}}}}}},
                "responses": {"201": _json({"type": "object", "properties": {
                    "session_id": {"type": "string"}, "response": {"type": "string"}}}, "created"),
                    **_errors(400, 401, 409, 429, 503)}}},
            "/v1/sessions/{session_id}": {"get": {
                "summary": "A conversation: turns, state and transcript", "parameters": [SESSION_PATH],
                "responses": {"200": _json({"type": "object", "properties": {
                    "session_id": {"type": "string"}, "turns": {"type": "integer"},
                    "state": {"$ref": "#/components/schemas/State"},
                    "transcript": {"type": "array", "items": {"type": "object"}}}}, "the conversation"),
                    **_errors(401, 404, 429)}}},
            "/v1/sessions/{session_id}/turns": {"post": {
                "summary": "Send one user turn; a repeated idempotency_key returns the first result",
                "parameters": [SESSION_PATH, {"name": "stream", "in": "query", "schema": {"type": "string"},
                                              "description": "1: answer as server-sent events (turn, delta…, done)"}],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["text"], "properties": {
                        "text": {"type": "string"}, "idempotency_key": {"type": "string", "maxLength": 200}}}}}},
                "responses": {"200": {"description": "the turn's result",
                                      "content": {"application/json": {"schema": turn_result},
                                                  "text/event-stream": {"schema": {"type": "string"}}}},
                              **_errors(400, 401, 404, 413, 429, 503)}}},
            "/v1/sessions/{session_id}/export": {"get": {
                "summary": "The conversation as `genie chat --jsonl` lines, or as a conversation test",
                "parameters": [SESSION_PATH, {"name": "format", "in": "query",
                                              "schema": {"enum": ["jsonl", "test"]}},
                               {"name": "name", "in": "query", "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the export"}, **_errors(400, 401, 404)}}},
            "/v1/chat/completions": {"post": {
                "summary": "OpenAI-compatible chat; the conversation is named by `user` or X-Genie-Session",
                "parameters": [{"name": "X-Genie-Session", "in": "header", "schema": {"type": "string"}},
                               {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["messages"], "properties": {
                        "model": {"type": "string"}, "messages": {"type": "array", "items": {"type": "object"}},
                        "user": {"type": "string"}, "stream": {"type": "boolean"}}}}}},
                "responses": {"200": {"description": "a chat.completion (or chat.completion.chunk events)"},
                              **_errors(400, 401, 413, 429, 503)}}},
            "/v1/models": {"get": {"summary": "The agent, as the one model", "responses": {"200": {
                "description": "model list"}}}},
            "/healthz": {"get": {"summary": "The process is up", "security": [], "responses": {"200": {
                "description": "ok"}}}},
            "/readyz": {"get": {"summary": "The agent is loaded and the store answers", "security": [],
                                "responses": {"200": {"description": "ready"}, "503": {"description": "not ready"}}}},
            "/metrics": {"get": {"summary": "Prometheus metrics", "security": [], "responses": {"200": {
                "description": "text exposition format"}}}},
            "/chat": {"get": {"summary": "The web chat page", "security": [], "responses": {"200": {
                "description": "HTML"}}}},
            "/widget.js": {"get": {"summary": "One-tag embed of the chat page", "security": [],
                                   "responses": {"200": {"description": "JavaScript"}}}},
        },
    }
