"""The plain-torch BERT encoder gives sentence-transformers' vectors, and refuses what it cannot copy."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core_engine.embedding import semantic
from core_engine.embedding.bert_encoder import BertSentenceEncoder

TEXTS = [
    "I need to see a dentist", "book a dental appointment", "  order a PIZZA  ", "", "x",
    "a romantic place known for its pad thai. " * 60,  # longer than the 256-token limit: truncated alike
    "café crème brûlée, naïve façade", "table for 4 at 12:30 on 2024-07-06", "我想预订餐厅",
]


@pytest.fixture(scope="module")
def model_path() -> Path:
    return semantic.resolve_model_path(None)


def test_vectors_equal_sentence_transformers(model_path):
    from sentence_transformers import SentenceTransformer

    ours = BertSentenceEncoder(model_path).encode(TEXTS)
    reference = SentenceTransformer(str(model_path), device="cpu", local_files_only=True).encode(
        TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    assert ours.shape == reference.shape == (len(TEXTS), 384)
    assert ours.dtype == np.float32
    cosines = (ours * reference).sum(axis=1)
    assert np.all(np.abs(cosines - 1.0) < 1e-5), cosines
    assert np.abs(ours - reference).max() < 1e-5


def test_batching_and_order_do_not_change_a_vector(model_path):
    enc = BertSentenceEncoder(model_path)
    together = enc.encode(TEXTS, batch_size=3)
    alone = np.stack([enc.encode([t])[0] for t in TEXTS])
    assert np.abs(together - alone).max() < 1e-5


def _copy_model(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("model.safetensors", "*.md"))
    (dst / "model.safetensors").symlink_to(src / "model.safetensors")
    return dst


def test_a_model_with_other_pooling_is_left_to_sentence_transformers(model_path, tmp_path):
    folder = _copy_model(model_path, tmp_path / "cls-model")
    pooling = folder / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text())
    config.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    pooling.write_text(json.dumps(config))
    with pytest.raises(LookupError, match="mean pooling"):
        BertSentenceEncoder(folder)
    embedder = semantic.ModelEmbedder(folder, "cls-model")
    assert embedder.backend == "sentence-transformers"
    assert embedder.encode(["hello"]).shape == (1, 384)


def test_the_bundled_model_loads_without_sentence_transformers():
    code = ("import sys; from core_engine.embedding.semantic import get_embedder; e = get_embedder(None); "
            "e.encode(['hello']); print(e.backend, 'sentence_transformers' in sys.modules, 'sklearn' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == ["bert_encoder", "False", "False"]
