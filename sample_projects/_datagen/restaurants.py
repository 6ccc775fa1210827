"""Generate the ``restaurants`` table of the restaurant_reservation sample (KITA fig. 30).

A few pinned rows echo the Genie paper's example conversation (App. H.1.5: The Public
Izakaya, Fang, Frascati, Local Kitchen & Wine Merchant, Ragazza) and make the sample's
test queries answerable; everything else is drawn from ``restaurant_words`` with one
seeded ``random.Random``. Addresses of the pinned rows follow the paper; all phone
numbers are fictional 555 numbers.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field

from .restaurant_words import (
    CITIES,
    CUISINES,
    EXCLUSIVE_FEATURES,
    EXTRA_DISHES,
    FEATURE_AFFINITY,
    FEATURES,
    FOOD_MIXED,
    FOOD_POOR,
    FOOD_PRAISE,
    HOURS,
    MEAL_STYLE,
    NAMES,
    PRICE_WORDS,
    SERVICE_GOOD,
    SERVICE_MIXED,
    SERVICE_POOR,
)

SEED = 20240705
PRICES = ("cheap", "moderate", "expensive", "luxury")
RATINGS = (2.5, 3.0, 3.5, 4.0, 4.5, 5.0)
RATING_WEIGHTS = (1, 3, 8, 12, 8, 2)
REVIEW_COUNT_TIERS = ((15, 120), (120, 600), (600, 1500), (1500, 3500))
REVIEW_COUNT_WEIGHTS = (3, 5, 3, 1)


@dataclass(frozen=True)
class Pinned:
    """A restaurant whose main facts are fixed; missing pieces are drawn like any other."""

    name: str
    location: str
    cuisines: list[str]
    price: str
    rating: float
    num_reviews: int
    popular_dishes: list[str]
    features: list[str]
    address: str | None = None
    opening_hours: list[str] | None = None


PINNED: list[Pinned] = [
    Pinned("The Public Izakaya", "San Francisco", ["Izakaya", "Sushi Bars", "Ramen"],
           "moderate", 4.5, 243,
           ["Korean Fried Chicken Thigh", "Fiery Wagyu Ramen", "Pork Belly", "Chicken Karaage"],
           ["lively", "late night", "good for groups"],
           "700 Post St, San Francisco, CA 94109", ["Mon-Sun 5 PM - 2 AM"]),
    Pinned("Fang", "San Francisco", ["Chinese", "Asian Fusion"], "moderate", 3.5, 1823,
           ["Nanking Sesame Chicken", "Crispy Honey Apple Prawns", "Mongolian Beef Tower"],
           ["good for groups", "family-friendly"],
           "660 Howard St, San Francisco, CA 94105",
           ["Mon-Sun 11 AM - 2 PM", "Mon-Sun 5:30 PM - 8:30 PM"]),
    Pinned("Frascati", "San Francisco", ["Italian", "American (New)", "Mediterranean"],
           "expensive", 4.5, 1273,
           ["Grilled Pork Chop", "Octopus Salad", "Vanilla Bean Panna Cotta"],
           ["romantic", "date night", "views"],
           "1901 Hyde St, San Francisco, CA 94109",
           ["Mon-Wed 5 PM - 9 PM", "Thu-Fri 5 PM - 9:30 PM", "Sat-Sun 5 PM - 9 PM"]),
    Pinned("Local Kitchen & Wine Merchant", "San Francisco",
           ["Wine Bars", "American (New)", "Pizza"], "moderate", 3.5, 1125,
           ["Bolognese", "Breakfast Pizza", "Margherita"], ["patio", "happy hour"],
           "330 1st St, San Francisco, CA 94105",
           ["Mon-Fri 12 PM - 3 PM", "Mon-Fri 4 PM - 9 PM", "Sat-Sun 10 AM - 10 PM"]),
    Pinned("Ragazza", "San Francisco", ["Pizza", "Italian"], "moderate", 4.0, 741,
           ["Amatriciana", "Moto", "Bianca"], ["patio", "birthday", "good for groups"],
           "311 Divisadero St, San Francisco, CA 94117", ["Mon-Sun 5 PM - 9 PM"]),
    Pinned("Maison Lumière", "San Francisco", ["French", "Wine Bars"], "expensive", 4.5, 688,
           ["Duck Confit", "Coq au Vin", "Crème Brûlée"], ["romantic", "quiet", "date night"]),
    Pinned("Baan Lemongrass", "Palo Alto", ["Thai"], "cheap", 4.0, 412,
           ["Pad See Ew", "Khao Soi", "Green Curry", "Mango Sticky Rice"],
           ["vegetarian options", "family-friendly"]),
    Pinned("Bistro Sabine", "Palo Alto", ["French"], "expensive", 4.0, 356,
           ["Steak Frites", "French Onion Soup", "Crème Brûlée"], ["romantic", "patio"]),
]

# Cuisine -> the adjective used for it in summaries.
_LABELS = {
    "Pizza": "pizza", "Sushi Bars": "sushi", "Ramen": "ramen", "Izakaya": "izakaya",
    "American (New)": "new American", "Seafood": "seafood", "Steakhouses": "steakhouse",
    "Vegan": "vegan", "Wine Bars": "wine bar", "Burgers": "burger", "Cafes": "cafe",
}
_FEATURE_SUMMARY = {
    "patio": "its patio", "outdoor seating": "the outdoor seating",
    "romantic": "a romantic setting", "date night": "date nights",
    "family-friendly": "a family-friendly feel", "kid-friendly": "a kid-friendly menu",
    "good for groups": "being good for groups", "quiet": "a quiet dining room",
    "lively": "a lively room", "views": "great views",
    "vegetarian options": "plenty of vegetarian options", "birthday": "birthday celebrations",
    "happy hour": "happy hour", "late night": "late night hours",
}


@dataclass
class _Registry:
    """Values that must stay unique across the whole table."""

    names: set[str] = field(default_factory=set)
    words: set[tuple[str, str]] = field(default_factory=set)
    addresses: set[str] = field(default_factory=set)
    phones: set[str] = field(default_factory=set)


def generate(seed: int = SEED) -> list[dict]:
    """All restaurant rows, city by city (pinned rows first within their city)."""
    rng = random.Random(seed)
    registry = _Registry(names={p.name for p in PINNED},
                         addresses={p.address for p in PINNED if p.address})
    rows: list[dict] = []
    for city, (_, count, _) in CITIES.items():
        pinned = [p for p in PINNED if p.location == city]
        quotas = ["luxury", "luxury", "vegan", "vegan"]
        for pin in pinned:
            rows.append(_pinned_row(rng, pin, registry))
        for index in range(count - len(pinned)):
            quota = quotas[index] if index < len(quotas) else ""
            rows.append(_random_row(rng, city, quota, registry))
    check_guarantees(rows)
    return rows


def _pinned_row(rng: random.Random, pin: Pinned, registry: _Registry) -> dict:
    address = pin.address or _address(rng, pin.location, registry)
    style = MEAL_STYLE.get(pin.cuisines[0], "lunch and dinner")
    hours = pin.opening_hours or rng.choice(HOURS[style])
    features = list(pin.features)
    return _assemble(rng, pin.name, pin.location, pin.cuisines, pin.price, pin.rating,
                     pin.num_reviews, address, pin.popular_dishes, hours, features, registry)


def _random_row(rng: random.Random, city: str, quota: str, registry: _Registry) -> dict:
    primary = _primary_cuisine(rng, quota, registry)
    _, pairs, price_weights, _ = CUISINES[primary]
    extra = rng.choices((0, 1, 2), weights=(4, 4, 2))[0]
    cuisines = [primary] + rng.sample(pairs, min(extra, len(pairs)))
    price = "luxury" if quota == "luxury" else rng.choices(PRICES, weights=price_weights)[0]
    rating = rng.choices(RATINGS, weights=RATING_WEIGHTS)[0]
    low, high = rng.choices(REVIEW_COUNT_TIERS, weights=REVIEW_COUNT_WEIGHTS)[0]
    num_reviews = rng.randint(low, high)
    name = _name(rng, primary, registry)
    address = _address(rng, city, registry)
    dishes = _dishes(rng, cuisines)
    hours = rng.choice(HOURS[MEAL_STYLE.get(primary, "lunch and dinner")])
    features = _features(rng, city, cuisines, price)
    return _assemble(rng, name, city, cuisines, price, rating, num_reviews, address, dishes,
                     hours, features, registry)


def _primary_cuisine(rng: random.Random, quota: str, registry: _Registry) -> str:
    """A weighted cuisine that still has an unused name word (so names stay distinct)."""
    names = [n for n in CUISINES if _free_words(n, registry)]
    if quota == "vegan":
        names = [n for n in names if n == "Vegan"]
    elif quota == "luxury":
        names = [n for n in names if CUISINES[n][2][3] > 0]
    if not names:
        raise AssertionError(f"restaurants: ran out of name words (quota {quota!r})")
    return rng.choices(names, weights=[CUISINES[n][0] for n in names])[0]


def _free_words(primary: str, registry: _Registry) -> list[str]:
    return [w for w in NAMES[primary][1] if (primary, w) not in registry.words]


def _name(rng: random.Random, primary: str, registry: _Registry) -> str:
    """A name built on a word no other restaurant of this cuisine uses."""
    patterns, _ = NAMES[primary]
    word = rng.choice(_free_words(primary, registry))
    registry.words.add((primary, word))
    name = rng.choice(patterns).format(word)
    if name in registry.names:
        raise AssertionError(f"restaurants: duplicate name {name!r}")
    registry.names.add(name)
    return name


def _address(rng: random.Random, city: str, registry: _Registry) -> str:
    streets = CITIES[city][2]
    while True:
        street, zip_code = rng.choice(streets)
        address = f"{rng.randint(100, 3999)} {street}, {city}, CA {zip_code}"
        if address not in registry.addresses:
            registry.addresses.add(address)
            return address


def _phone(rng: random.Random, city: str, registry: _Registry) -> str:
    area = CITIES[city][0]
    while True:
        phone = f"({area}) 555-0{rng.randint(100, 999)}"
        if phone not in registry.phones:
            registry.phones.add(phone)
            return phone


def _dishes(rng: random.Random, cuisines: list[str]) -> list[str]:
    own = CUISINES[cuisines[0]][3]
    dishes = rng.sample(own, rng.randint(2, 4))
    if len(cuisines) > 1 and rng.random() < 0.5:
        second = cuisines[1]
        pool = CUISINES[second][3] if second in CUISINES else EXTRA_DISHES[second]
        candidates = [d for d in pool if d not in dishes]
        dishes.append(rng.choice(candidates))
    return dishes


def _features(rng: random.Random, city: str, cuisines: list[str], price: str) -> list[str]:
    traits = [*cuisines, price]
    names = [f for f in FEATURES if f != "views" or city == "San Francisco"]
    weights = [2 + 4 * sum(t in FEATURE_AFFINITY.get(f, []) for t in traits) for f in names]
    chosen: list[str] = []
    target = rng.randint(2, 4)
    while len(chosen) < target:
        pick = rng.choices(names, weights=weights)[0]
        if pick in chosen or any(_conflicts(pick, other) for other in chosen):
            continue
        chosen.append(pick)
    return chosen


def _conflicts(a: str, b: str) -> bool:
    return (a, b) in EXCLUSIVE_FEATURES or (b, a) in EXCLUSIVE_FEATURES


def _assemble(rng: random.Random, name: str, city: str, cuisines: list[str], price: str,
              rating: float, num_reviews: int, address: str, dishes: list[str],
              hours: list[str], features: list[str], registry: _Registry) -> dict:
    """Build one row in the column order of KITA fig. 30 (the order is part of the bytes)."""
    phone = _phone(rng, city, registry)
    reviews = _reviews(rng, rating, dishes, features)
    return {
        "id": _slug(f"{name} {city}"),
        "name": name,
        "cuisines": cuisines,
        "price": price,
        "rating": rating,
        "num_reviews": num_reviews,
        "address": address,
        "popular_dishes": dishes,
        "phone_number": phone,
        "location": city,
        "opening_hours": hours,
        "summary": _summary(name, city, cuisines, price, dishes, features),
        "reviews": reviews,
    }


def _reviews(rng: random.Random, rating: float, dishes: list[str],
             features: list[str]) -> list[str]:
    count = rng.randint(max(3, len(features)), 6)
    order = rng.sample(features, len(features))
    tone_weights = {5.0: (9, 1, 0), 4.5: (8, 2, 0), 4.0: (6, 3, 1), 3.5: (3, 5, 2),
                    3.0: (2, 4, 4), 2.5: (1, 3, 6)}[rating]
    reviews = []
    for index in range(count):
        tone = rng.choices(("good", "mixed", "poor"), weights=tone_weights)[0]
        food = {"good": FOOD_PRAISE, "mixed": FOOD_MIXED, "poor": FOOD_POOR}[tone]
        sentences = [rng.choice(food).format(dish=rng.choice(dishes))]
        if index < len(order):
            sentences.append(rng.choice(FEATURES[order[index]]))
        if len(sentences) == 1 or rng.random() < 0.4:
            service = {"good": SERVICE_GOOD, "mixed": SERVICE_MIXED, "poor": SERVICE_POOR}[tone]
            sentences.append(rng.choice(service))
        reviews.append(" ".join(sentences))
    return rng.sample(reviews, len(reviews))


def _summary(name: str, city: str, cuisines: list[str], price: str, dishes: list[str],
             features: list[str]) -> str:
    label = " and ".join(_LABELS.get(c, c) for c in cuisines[:2])
    first = (f"{name} is {PRICE_WORDS[price]} {label} spot in {city}, "
             f"best known for its {dishes[0]} and {dishes[1]}.")
    mentions = [_FEATURE_SUMMARY[f] for f in features[:2]]
    return f"{first} Reviewers mention {' and '.join(mentions)}."


def _slug(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    ascii_text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")


def _mentions(row: dict, word: str) -> bool:
    return any(word in review.lower() for review in row["reviews"])


def check_guarantees(rows: list[dict]) -> None:
    """Raise AssertionError unless the table answers the sample's documented queries."""
    def require(condition: bool, message: str) -> None:
        if not condition:
            raise AssertionError(f"restaurants: {message}")

    cities = list(CITIES)
    require(len(rows) >= 240, f"only {len(rows)} rows")
    require({r["location"] for r in rows} == set(cities), "unexpected locations")
    per_city = {c: [r for r in rows if r["location"] == c] for c in cities}
    require(max(per_city, key=lambda c: len(per_city[c])) == "San Francisco",
            "San Francisco must have the largest share")
    require(len({r["name"] for r in rows}) == len(rows), "duplicate names")
    require(len({r["id"] for r in rows}) == len(rows), "duplicate ids")
    for row in rows:
        require(1 <= len(row["cuisines"]) <= 3, f"cuisines of {row['name']}")
        require(2 <= len(row["popular_dishes"]) <= 5, f"dishes of {row['name']}")
        require(3 <= len(row["reviews"]) <= 6, f"reviews of {row['name']}")
        require(row["rating"] in RATINGS and row["price"] in PRICES,
                f"rating/price of {row['name']}")
    require(any("Pizza" in r["cuisines"] and r["location"] == "San Francisco"
                and _mentions(r, "patio") for r in rows), "no SF pizza place with a patio")
    require(any("French" in r["cuisines"] and _mentions(r, "romantic") for r in rows),
            "no romantic French restaurant")
    require(any("Thai" in r["cuisines"] and r["price"] == "cheap" and r["location"] == "Palo Alto"
                for r in rows), "no cheap Thai in Palo Alto")
    by_name = {r["name"]: r for r in rows}
    ragazza = by_name.get("Ragazza")
    require(ragazza is not None and ragazza["location"] == "San Francisco"
            and {"Pizza", "Italian"} <= set(ragazza["cuisines"])
            and ragazza["price"] == "moderate" and _mentions(ragazza, "patio"), "Ragazza")
    for name in ("The Public Izakaya", "Fang", "Frascati"):
        require(name in by_name and by_name[name]["location"] == "San Francisco", name)
    for city, city_rows in per_city.items():
        require(sum(r["price"] == "luxury" for r in city_rows) >= 2, f"luxury in {city}")
        require(sum("Vegan" in r["cuisines"] for r in city_rows) >= 2, f"vegan in {city}")
