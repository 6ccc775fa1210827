"""The embedding model loads offline from its package, once, and falls back honestly."""

from __future__ import annotations

import numpy as np

from core_engine.embedding import semantic


def test_bundled_model_loads_offline_and_ranks_by_meaning():
    emb = semantic.get_embedder(None)
    assert emb.fallback_reason is None, emb.fallback_reason
    assert semantic.get_embedder(semantic.DEFAULT_MODEL) is emb  # loaded once per process
    vecs = emb.encode(["I need to see a dentist", "book a dental appointment", "order a pizza"])
    assert vecs.shape == (3, emb.dim)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    sims = semantic.cosine_matrix(vecs[:1], vecs[1:])[0]
    assert sims[0] > sims[1] + 0.2


def test_bad_model_setting_falls_back_to_lexical_with_reason(tmp_path):
    emb = semantic.get_embedder(str(tmp_path / "no-such-model"))
    assert emb.name == "lexical"
    assert "could not be loaded" in emb.fallback_reason
    vecs = emb.encode(["orthodontist", "orthodontics", "pizza"])
    sims = semantic.cosine_matrix(vecs[:1], vecs[1:])[0]
    assert sims[0] > sims[1]
