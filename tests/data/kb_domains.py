"""Two small knowledge bases the knowledge parser was not written for (not samples).

A dentists directory (30 rows: specialty, city, spoken languages, rating, checkup
price, years of experience, free-text description) and a bike shop catalogue
(24 products). Deterministic; the tests import them into a temporary SQLite file
with the real importer and compute every expected answer from these records.
"""

from __future__ import annotations

import random

SPECIALTIES = ["General Dentistry"] * 9 + ["Pediatric Dentistry"] * 6 + ["Orthodontics"] * 6 + \
    ["Endodontics"] * 3 + ["Periodontics"] * 3 + ["Cosmetic Dentistry"] * 3
FIRST = ["Grace", "Omar", "Lena", "Victor", "Priya", "Hiro", "Amara", "Felix", "Nadia", "Tomas", "Ingrid", "Kofi",
         "Rosa", "Dmitri", "Mei", "Samuel", "Yara", "Jonah", "Leila", "Bruno", "Anika", "Mateo", "Sofia", "Elias",
         "Chloe", "Rafael", "Hana", "Isaac", "Zoe", "Marcus"]
LAST = ["Garcia", "Haddad", "Novak", "Okafor", "Raman", "Tanaka", "Mensah", "Brandt", "Petrova", "Silva", "Lund",
        "Asante", "Delgado", "Volkov", "Chen", "Whitfield", "Nasser", "Kline", "Farah", "Costa", "Berg", "Rojas",
        "Moretti", "Lindqvist", "Dubois", "Herrera", "Sato", "Adler", "Quinn", "Ellery"]
CITIES = ["Riverton", "Lakeside", "Maple Grove", "Harbor City", "Cedar Falls"]
LANGUAGES = ["English", "Spanish", "Mandarin", "French", "Arabic", "Hindi", "Portuguese"]
CALM = [
    "Known for a calm chairside manner with nervous patients and those who fear the drill.",
    "Patients who dread dental visits say the slow, reassuring approach put them at ease.",
    "Offers sedation options and a quiet room for people with dental phobia.",
]
OTHER = [
    "Early morning appointments before work are available most weekdays.",
    "The office has free parking and is close to the train station.",
    "Accepts most insurance plans and offers payment plans for larger treatments.",
    "Uses digital x-rays and same-day crowns made in the office.",
    "Saturday appointments are available twice a month.",
]
FOCUS = {
    "General Dentistry": "Routine cleanings, fillings and checkups for the whole family.",
    "Pediatric Dentistry": "Care for babies, children and teenagers, with a playroom in the waiting area.",
    "Orthodontics": "Braces and clear aligners to straighten teeth and fix bite problems.",
    "Endodontics": "Root canal treatment and saving infected teeth.",
    "Periodontics": "Treatment of gum disease, gum grafts and dental implants.",
    "Cosmetic Dentistry": "Teeth whitening, veneers and smile makeovers.",
}


def dentists() -> list[dict]:
    rng = random.Random(12)
    rows = []
    for i in range(30):
        specialty = SPECIALTIES[i]
        langs = ["English"] + rng.sample(LANGUAGES[1:], rng.choice([0, 1, 1, 2]))
        if i in (9, 10, 12):  # pediatric dentists who speak Spanish (and one who does not: 11)
            langs = sorted(set(langs) | {"Spanish"})
        if i == 11:
            langs = [x for x in langs if x != "Spanish"]
        text = FOCUS[specialty] + " " + (CALM[i % 3] if i % 7 == 0 else rng.choice(OTHER))
        rows.append({
            "dentist_id": f"d{i + 1:02d}",
            "name": f"Dr. {FIRST[i]} {LAST[i]}",
            "specialty": specialty,
            "city": CITIES[i % 5],
            "languages": langs,
            "rating": round(rng.uniform(3.2, 5.0), 1),
            "checkup_price": rng.choice([60, 75, 90, 110, 125, 150, 180]),
            "years_experience": rng.randint(2, 30),
            "description": text,
        })
    return rows


CATEGORIES = {
    "Mountain Bike": ["Ridgeback Trail 500", "Summit Pro 29", "Granite Hardtail", "Rockhopper Expert"],
    "Road Bike": ["Velocity SL", "Aero Sprint 9", "Tempo Endurance", "Cobble Classic"],
    "Electric Bike": ["Volt Commuter", "Surge Cargo", "Boost City", "Amp Trail"],
    "Helmet": ["Shield MIPS", "Breeze Road Helmet", "Kid Dome"],
    "Lock": ["Fortress U-Lock", "Chainlink Heavy", "Fold Guard"],
    "Lights": ["Beam 800", "Blink Tail", "Night Pair Set"],
    "Pump": ["Floor Boost", "Mini Inflate", "Shock Tuner"],
}
BLURB = {
    "Mountain Bike": "Wide knobby tyres and front suspension for dirt trails and rocky descents.",
    "Road Bike": "Light frame and drop handlebars for fast riding on paved roads.",
    "Electric Bike": "A battery-assisted motor helps on hills and long commutes.",
    "Helmet": "Protects your head in a crash; adjustable fit and vents.",
    "Lock": "Hardened steel that thieves cannot cut easily, so your bike stays where you left it.",
    "Lights": "Makes you visible to cars at night and in the rain.",
    "Pump": "Inflates tyres quickly with a pressure gauge.",
}
PRICE = {"Mountain Bike": (600, 2400), "Road Bike": (800, 3000), "Electric Bike": (1500, 4200), "Helmet": (40, 160),
         "Lock": (30, 120), "Lights": (20, 90), "Pump": (15, 70)}
COLORS = ["Black", "Red", "Blue", "Green", "White", "Orange"]


def bike_shop() -> list[dict]:
    rng = random.Random(17)
    rows, n = [], 0
    for category, names in CATEGORIES.items():
        for name in names:
            n += 1
            lo, hi = PRICE[category]
            rows.append({
                "sku": f"P{n:03d}",
                "product": name,
                "category": category,
                "price": float(rng.randrange(lo, hi, 5)),
                "rating": round(rng.uniform(3.0, 5.0), 1),
                "colors": rng.sample(COLORS, rng.randint(1, 3)),
                "in_stock": rng.random() > 0.2,
                "details": BLURB[category],
            })
    return rows
