"""A BERT sentence encoder in plain torch, for models that are exactly BERT + mean pooling.

Why: importing sentence-transformers costs most of the embedding model's load time (it
imports its trainers, evaluators, scikit-learn, SciPy and pandas, and transformers pulls in
torch.distributed and dynamo). The bundled all-MiniLM-L6-v2 is a 6-layer BERT followed by
mean pooling and normalisation; this module computes the same vectors from the same files
(`tokenizer.json` through the `tokenizers` library, weights from `model.safetensors`) with
only torch imported. `load` refuses (LookupError) any folder whose modules, pooling or
architecture it does not reproduce exactly, and the caller then uses sentence-transformers.
tests/test_bert_encoder.py checks the vectors against sentence-transformers' own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

__all__ = ["BertSentenceEncoder"]

_MODULES = ["sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling"]
_NORMALIZE = "sentence_transformers.models.Normalize"
_MEAN_ONLY = {"pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False, "pooling_mode_max_tokens": False,
              "pooling_mode_mean_sqrt_len_tokens": False}


def _read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _check_folder(path: Path) -> tuple[dict, int, bool]:
    """The BERT config, max sequence length and lower-casing of a folder this encoder reproduces."""
    for name in ("modules.json", "config.json", "tokenizer.json", "model.safetensors", "sentence_bert_config.json"):
        if not (path / name).is_file():
            raise LookupError(f"no {name}")
    modules = _read(path / "modules.json")
    types = [m.get("type") for m in modules]
    if types[:2] != _MODULES or types[2:] not in ([], [_NORMALIZE]) or modules[0].get("path") not in ("", None):
        raise LookupError(f"modules {types} are not Transformer + Pooling (+ Normalize)")
    pooling = _read(path / modules[1]["path"] / "config.json")
    if any(bool(pooling.get(k, False)) != v for k, v in _MEAN_ONLY.items()) or any(
            v for k, v in pooling.items() if k.startswith("pooling_mode") and k not in _MEAN_ONLY):
        raise LookupError("pooling is not mean pooling")
    config = _read(path / "config.json")
    if (config.get("model_type") != "bert" or config.get("hidden_act") != "gelu"
            or config.get("position_embedding_type", "absolute") != "absolute"):
        raise LookupError("not a plain BERT encoder")
    st_config = _read(path / "sentence_bert_config.json")
    max_len = min(int(st_config.get("max_seq_length") or 512), int(config["max_position_embeddings"]))
    return config, max_len, bool(st_config.get("do_lower_case", False))


class BertSentenceEncoder:
    """`encode(texts)` -> (n, hidden) float32 numpy rows, mean-pooled and L2-normalised."""

    def __init__(self, path: Path) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        config, self.max_len, self.lower = _check_folder(path)
        self.dim = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        weights = load_file(str(path / "model.safetensors"))
        self.w = {k.removeprefix("bert."): v.float() for k, v in weights.items()}
        if f"encoder.layer.{self.layers - 1}.output.dense.weight" not in self.w:
            raise LookupError("the weights are not a BERT encoder's")
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_len)
        pad = int(config.get("pad_token_id", 0))
        self.tokenizer.enable_padding(pad_id=pad, pad_token=self.tokenizer.id_to_token(pad) or "[PAD]")
        self.torch = torch

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> Any:
        import numpy as np

        # like sentence-transformers: stripped (and lower-cased if configured), longest first
        cleaned = [str(t).strip() for t in texts]
        if self.lower:
            cleaned = [t.lower() for t in cleaned]
        order = sorted(range(len(cleaned)), key=lambda i: -len(cleaned[i]))
        out = np.zeros((len(cleaned), self.dim), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            chunk = order[start:start + batch_size]
            out[chunk] = self._batch([cleaned[i] for i in chunk])
        return out

    def _batch(self, texts: list[str]) -> Any:
        torch, w = self.torch, self.w
        F = torch.nn.functional
        encoded = self.tokenizer.encode_batch(texts)
        ids = torch.tensor([e.ids for e in encoded], dtype=torch.long)
        types = torch.tensor([e.type_ids for e in encoded], dtype=torch.long)
        mask = torch.tensor([e.attention_mask for e in encoded], dtype=torch.bool)
        n, length = ids.shape
        with torch.inference_mode():
            x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length]
                 + w["embeddings.token_type_embeddings.weight"][types])
            x = F.layer_norm(x, (self.dim,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
            attend = mask[:, None, None, :]
            size = self.dim // self.heads
            for i in range(self.layers):
                p = f"encoder.layer.{i}."

                def lin(name: str, h: Any) -> Any:
                    return F.linear(h, w[p + name + ".weight"], w[p + name + ".bias"])

                q, k, v = (lin(f"attention.self.{name}", x).view(n, length, self.heads, size).transpose(1, 2)
                           for name in ("query", "key", "value"))
                ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=attend).transpose(1, 2).reshape(n, length, -1)
                x = F.layer_norm(lin("attention.output.dense", ctx) + x, (self.dim,),
                                 w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"],
                                 self.eps)
                h = F.gelu(lin("intermediate.dense", x))
                x = F.layer_norm(lin("output.dense", h) + x, (self.dim,), w[p + "output.LayerNorm.weight"],
                                 w[p + "output.LayerNorm.bias"], self.eps)
            keep = mask.unsqueeze(-1).to(x.dtype)
            pooled = (x * keep).sum(1) / keep.sum(1).clamp(min=1e-9)
            return F.normalize(pooled, p=2, dim=1).numpy()
