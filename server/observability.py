"""Prometheus metrics and structured JSON logs of the serving side.

With several uvicorn workers each process counts on its own; `genie serve --workers N`
sets PROMETHEUS_MULTIPROC_DIR so `/metrics` (answered by any worker) sums them all.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest

__all__ = ["TURNS", "TURN_SECONDS", "ERRORS", "LLM_CALLS", "LLM_TOKENS", "render_metrics", "CONTENT_TYPE_LATEST",
           "log", "setup_logging", "count_turn"]

TURNS = Counter("genie_turns_total", "Turns answered, by outcome (applied, replayed, fallback)", ["outcome"])
TURN_SECONDS = Histogram("genie_turn_seconds", "Time to answer a turn, store and engine included",
                         buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60))
ERRORS = Counter("genie_errors_total", "Requests that failed, by kind", ["kind"])
LLM_CALLS = Counter("genie_llm_calls_total", "LLM calls made by turns, by component", ["component"])
LLM_TOKENS = Counter("genie_llm_tokens_total", "LLM tokens used by turns", ["kind"])

log = logging.getLogger("genie.serve")


def render_metrics() -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest()


def count_turn(turn_json: dict[str, Any], replayed: bool, seconds: float) -> None:
    from core_engine.session.turn import llm_summary
    TURN_SECONDS.observe(seconds)
    if replayed:
        TURNS.labels("replayed").inc()
        return
    trace = turn_json.get("trace") or {}
    TURNS.labels("fallback" if trace.get("fallback") else "applied").inc()
    if trace.get("fallback"):
        ERRORS.labels("engine_fallback").inc()
    usage = llm_summary(trace)
    for component, n in usage["calls"].items():
        if n:
            LLM_CALLS.labels(component).inc(n)
    for kind in ("prompt", "completion"):
        if usage[f"{kind}_tokens"]:
            LLM_TOKENS.labels(kind).inc(usage[f"{kind}_tokens"])


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the record's `extra` fields."""

    _skip = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                               + f".{int(record.msecs):03d}Z", "level": record.levelname.lower(),
                               "logger": record.name, "msg": record.getMessage(), "pid": record.process}
        out.update({k: v for k, v in vars(record).items() if k not in self._skip})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def setup_logging(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
