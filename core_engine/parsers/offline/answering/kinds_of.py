"""A yes/no question about having some kind of thing, answered by naming one: "2 dogs, both very friendly" or "just
a rabbit" to "are there pets or young children at the property?" is a yes.

A word of the answer means a kind of what the field's name says when the embedding model puts it close to a word of
that name (cosine at least `KIND_OF`: "dogs"/"pets" 0.82, "rabbit"/"pets" 0.54, "toddler"/"children" 0.54;
"garden" 0.35, "wife" 0.29, "visitors" 0.32). Only with the model loaded (the lexical fallback knows no kinds), only
for an answer with no yes or no, no negation and no question in it.
"""

from __future__ import annotations

import re
from typing import Any

from ....spec.model import Field
from ..words.match import STOPWORDS, stem

KIND_OF = 0.5
_NEGATION = re.compile(r"\b(?:no|not|none|never|nothing|nobody|without|n't|dont|doesnt|isnt|arent)\b", re.I)
_AWAY = re.compile(r"\bbut\b|\b(?:stay(?:ing)?|be|are|is)\s+(?:at\s+(?:home|school|work|nursery)|away|elsewhere|out)\b",
                   re.I)
"""The things named are not there ("two dogs but they will stay at home", "the kids are at school that day")."""
_GENERIC = frozenset("""whether there are is any property home house the of or and young old add has have need needs want
use get more extra another first second third fourth fifth next other same new""".split())
"""Words of a field's name that say no kind of thing ("add_third": a third what?)."""
_NUMBER_WORDS = frozenset("""one two three four five six seven eight nine ten eleven twelve both none all few couple several
those these them they""".split())


def kind_named(f: Field, text: str, index: Any) -> bool | None:
    """True when the answer names a kind of what the yes/no field asks about; None otherwise."""
    if index is None or index.fallback_reason or "?" in text or _NEGATION.search(text) or _AWAY.search(text) \
            or len(text.split()) > 12:
        return None
    asked = [w for w in f.name.lower().split("_") if len(w) >= 3 and w not in STOPWORDS and w not in _GENERIC]
    said = [w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 3 and w not in STOPWORDS
            and w not in _NUMBER_WORDS]
    if {stem(w) for w in said} & {stem(a) for a in asked}:
        return None  # "a library card" to "a loyalty card?": the thing's own noun with another word is another thing
    if not asked or not said:
        return None
    from ....embedding.semantic import cosine_matrix
    sims = cosine_matrix(index.embedder.encode(said), index.embedder.encode(asked))
    return True if float(sims.max()) >= KIND_OF else None
