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


def test_a_large_batch_of_new_texts_runs_on_every_core_and_gives_the_same_vectors(monkeypatch):
    import torch

    emb = semantic.get_embedder(None)
    if emb.fallback_reason or emb._batch_threads <= emb._threads:
        import pytest

        pytest.skip("one core, or no model: nothing to switch")
    seen: list[int] = []
    real = torch.set_num_threads

    def record(n: int) -> None:
        seen.append(n)
        real(n)

    monkeypatch.setattr(torch, "set_num_threads", record)
    texts = [f"a sentence about item number {i} in the batch" for i in range(semantic._MANY + 3)]
    batch = emb.encode(texts)
    assert seen == [emb._batch_threads, emb._threads] and torch.get_num_threads() == emb._threads
    seen.clear()
    emb.encode(["one more new sentence", "and another"])  # a small batch: no switch
    assert seen == []
    alone = emb._model.encode([texts[1]])  # the model itself, one thread, no cache
    assert np.allclose(batch[1], alone[0], atol=1e-5)
