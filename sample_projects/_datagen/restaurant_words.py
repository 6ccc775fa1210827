"""Word lists for the restaurant generator: cities, cuisines, dishes, names and phrases.

Everything here is invented for this project; the generator only picks from these lists.
"""

from __future__ import annotations

# City -> (area code, number of generated restaurants, [(street, zip code), ...]).
CITIES: dict[str, tuple[str, int, list[tuple[str, str]]]] = {
    "San Francisco": ("415", 118, [
        ("Valencia St", "94110"), ("Mission St", "94110"), ("24th St", "94110"),
        ("Divisadero St", "94117"), ("Haight St", "94117"), ("Columbus Ave", "94133"),
        ("Grant Ave", "94133"), ("Post St", "94109"), ("Polk St", "94109"),
        ("Hyde St", "94109"), ("Howard St", "94105"), ("1st St", "94105"),
        ("Folsom St", "94107"), ("3rd St", "94107"), ("Fillmore St", "94115"),
        ("Clement St", "94118"), ("Geary Blvd", "94118"), ("Irving St", "94122"),
        ("Chestnut St", "94123"), ("Union St", "94123"), ("Market St", "94102"),
        ("Hayes St", "94102"), ("18th St", "94114"), ("Castro St", "94114"),
        ("Kearny St", "94108"), ("Embarcadero", "94111"), ("Judah St", "94122"),
    ]),
    "Palo Alto": ("650", 48, [
        ("University Ave", "94301"), ("Hamilton Ave", "94301"), ("Emerson St", "94301"),
        ("Ramona St", "94301"), ("Alma St", "94301"), ("Middlefield Rd", "94301"),
        ("California Ave", "94306"), ("El Camino Real", "94306"), ("Park Blvd", "94306"),
        ("Embarcadero Rd", "94303"), ("Page Mill Rd", "94304"),
    ]),
    "Sunnyvale": ("408", 42, [
        ("Murphy Ave", "94086"), ("Mathilda Ave", "94086"), ("Washington Ave", "94086"),
        ("Evelyn Ave", "94086"), ("El Camino Real", "94087"), ("Hollenbeck Ave", "94087"),
        ("Fremont Ave", "94087"), ("Lawrence Expy", "94089"), ("Java Dr", "94089"),
        ("Fair Oaks Ave", "94085"),
    ]),
    "Cupertino": ("408", 38, [
        ("Stevens Creek Blvd", "95014"), ("De Anza Blvd", "95014"), ("Homestead Rd", "95014"),
        ("Wolfe Rd", "95014"), ("Bollinger Rd", "95014"), ("Saratoga-Sunnyvale Rd", "95014"),
        ("Stelling Rd", "95014"), ("Blaney Ave", "95014"),
    ]),
}

# Primary cuisine -> (weight, cuisines it is often paired with, price weights
# (cheap, moderate, expensive, luxury), dishes).
CUISINES: dict[str, tuple[int, list[str], tuple[int, int, int, int], list[str]]] = {
    "Pizza": (9, ["Italian", "Wine Bars", "American (New)"], (5, 6, 1, 0), [
        "Margherita", "Funghi Pizza", "Sausage and Fennel Pizza", "Clam Pie",
        "Burrata Salad", "Garlic Knots", "Pepperoni and Hot Honey Pizza", "Calzone"]),
    "Italian": (9, ["Pizza", "Wine Bars", "Mediterranean"], (1, 6, 4, 1), [
        "Cacio e Pepe", "Tagliatelle Bolognese", "Burrata", "Osso Buco", "Tiramisu",
        "Wild Mushroom Risotto", "Agnolotti", "Panna Cotta"]),
    "French": (7, ["Wine Bars", "Cafes", "Seafood"], (0, 3, 5, 3), [
        "Duck Confit", "Steak Frites", "French Onion Soup", "Moules Marinières",
        "Croque Madame", "Coq au Vin", "Crème Brûlée", "Escargots"]),
    "Thai": (8, ["Vietnamese", "Vegan"], (6, 5, 1, 0), [
        "Pad See Ew", "Khao Soi", "Green Curry", "Papaya Salad", "Pad Thai",
        "Tom Kha Soup", "Crying Tiger Beef", "Mango Sticky Rice"]),
    "Chinese": (8, ["Asian Fusion", "Seafood"], (5, 5, 2, 0), [
        "Xiao Long Bao", "Dry-Fried Green Beans", "Salt and Pepper Squid",
        "Dan Dan Noodles", "Peking Duck", "Mapo Tofu", "Char Siu Pork", "Hot and Sour Soup"]),
    "Japanese": (5, ["Sushi Bars", "Izakaya", "Ramen"], (2, 4, 3, 2), [
        "Chirashi Bowl", "Black Cod Miso", "Agedashi Tofu", "Tempura Udon",
        "Wagyu Tataki", "Matcha Cheesecake"]),
    "Sushi Bars": (6, ["Japanese", "Izakaya"], (1, 4, 4, 3), [
        "Omakase", "Spicy Tuna Roll", "Salmon Nigiri", "Hamachi Crudo", "Uni Hand Roll",
        "Rainbow Roll", "Toro Tartare"]),
    "Ramen": (5, ["Japanese", "Izakaya"], (6, 4, 0, 0), [
        "Tonkotsu Ramen", "Spicy Miso Ramen", "Shoyu Ramen", "Pork Gyoza",
        "Chicken Paitan Ramen", "Tsukemen"]),
    "Izakaya": (4, ["Japanese", "Sushi Bars", "Ramen"], (1, 6, 3, 0), [
        "Chicken Karaage", "Yakitori Skewers", "Pork Belly Skewers", "Grilled Onigiri",
        "Takoyaki", "Miso Eggplant"]),
    "Mexican": (9, ["Seafood", "Vegan"], (7, 4, 1, 0), [
        "Carnitas Tacos", "Al Pastor Burrito", "Mole Poblano", "Fish Tacos",
        "Chile Relleno", "Elote", "Carne Asada Plate", "Churros"]),
    "Indian": (8, ["Vegan"], (4, 6, 2, 0), [
        "Butter Chicken", "Lamb Rogan Josh", "Palak Paneer", "Masala Dosa",
        "Chicken Tikka Masala", "Garlic Naan", "Chana Masala", "Lamb Biryani"]),
    "Korean": (6, ["Asian Fusion", "Japanese"], (3, 6, 2, 0), [
        "Galbi", "Bibimbap", "Kimchi Jjigae", "Korean Fried Chicken", "Japchae",
        "Seafood Pancake", "Bulgogi"]),
    "Vietnamese": (6, ["Thai", "Cafes", "Vegan"], (7, 4, 0, 0), [
        "Pho Tai", "Banh Mi", "Bun Bo Hue", "Garlic Noodles", "Imperial Rolls",
        "Shaking Beef", "Lemongrass Chicken Vermicelli"]),
    "Mediterranean": (6, ["Greek", "Middle Eastern", "Wine Bars"], (3, 6, 3, 1), [
        "Lamb Kofta", "Grilled Octopus", "Hummus Plate", "Falafel Wrap",
        "Roasted Branzino", "Baklava"]),
    "Greek": (4, ["Mediterranean", "Seafood"], (2, 5, 3, 0), [
        "Moussaka", "Lamb Souvlaki", "Spanakopita", "Grilled Halloumi",
        "Greek Salad", "Loukoumades"]),
    "Middle Eastern": (5, ["Mediterranean", "Vegan"], (4, 5, 1, 0), [
        "Chicken Shawarma", "Baba Ghanoush", "Lamb Mansaf", "Fattoush",
        "Manakish", "Kibbeh"]),
    "American (New)": (9, ["Wine Bars", "Burgers", "Seafood", "Cafes"], (1, 5, 5, 2), [
        "Fried Chicken Sandwich", "Roasted Half Chicken", "Pork Chop", "Beet Salad",
        "Short Rib", "Brussels Sprouts", "Butterscotch Pudding"]),
    "Seafood": (6, ["American (New)", "Wine Bars"], (1, 4, 5, 2), [
        "Cioppino", "Dungeness Crab", "Clam Chowder", "Oysters on the Half Shell",
        "Lobster Roll", "Seared Scallops", "Fish and Chips"]),
    "Steakhouses": (4, ["American (New)", "Seafood", "Wine Bars"], (0, 1, 5, 4), [
        "Dry-Aged Ribeye", "Filet Mignon", "Wedge Salad", "Creamed Spinach",
        "Bone-in New York Strip", "Truffle Fries"]),
    "Burgers": (6, ["American (New)"], (7, 3, 0, 0), [
        "Classic Cheeseburger", "Double Smash Burger", "Garlic Fries", "Chili Cheese Fries",
        "Mushroom Swiss Burger", "Onion Rings"]),
    "Vegan": (3, ["Cafes", "Mediterranean"], (4, 5, 1, 0), [
        "Jackfruit Tacos", "Cashew Mac and Cheese", "Buddha Bowl", "Black Bean Burger",
        "Cauliflower Wings", "Vegan Chocolate Cake"]),
    "Cafes": (7, ["American (New)", "French"], (7, 3, 0, 0), [
        "Avocado Toast", "Breakfast Burrito", "Almond Croissant", "Shakshuka",
        "Croque Monsieur", "Lemon Ricotta Pancakes"]),
    "Wine Bars": (4, ["American (New)", "Italian", "Spanish"], (0, 5, 4, 1), [
        "Cheese and Charcuterie Board", "Marinated Olives", "Flatbread",
        "Deviled Eggs", "Smoked Trout Toast"]),
    "Spanish": (4, ["Wine Bars", "Seafood", "Mediterranean"], (1, 5, 4, 1), [
        "Paella Valenciana", "Patatas Bravas", "Gambas al Ajillo", "Jamón Ibérico",
        "Tortilla Española", "Churros con Chocolate"]),
    "Ethiopian": (3, ["Vegan"], (4, 4, 0, 0), [
        "Doro Wat", "Veggie Combo", "Kitfo", "Injera", "Tibs", "Misir Wat"]),
}

# Dishes for secondary cuisines that are not primary cuisines themselves.
EXTRA_DISHES: dict[str, list[str]] = {
    "Asian Fusion": ["Kung Pao Brussels Sprouts", "Crispy Pork Belly Bao", "Miso Glazed Salmon"],
}

# Primary cuisine -> (name patterns, words to put in them).
NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Pizza": (["{} Pizzeria", "Pizzeria {}", "{} Pizza Co.", "{}"], [
        "Forno Rosso", "Vesuvio Hill", "Crosta", "Blue Flame", "Basil Lane", "Sette Forni",
        "Brick & Basil", "Cornicione", "Tomatina", "Sunset Slice", "Half Moon", "Leopardo",
        "Stone Arch", "Red Door", "Mezzaluna", "Fiamma"]),
    "Italian": (["Trattoria {}", "Osteria {}", "Cucina {}", "{}"], [
        "Girasole", "Fiorella", "Nonna Lucia", "Piccolino", "Vespa", "Bellavista",
        "Il Cortile", "Marzano", "Sole Mio", "Ponte Vecchio", "Limoncello", "Paglia", "Lucciola",
        "Borgo Antico", "Fontanella", "Orto", "Il Pozzo"]),
    "French": (["Bistro {}", "Brasserie {}", "Chez {}", "Café {}", "Maison {}"], [
        "Colette", "Marcel", "Petit Jardin", "Belle Époque", "Rive Gauche", "Margaux",
        "Papillon", "Les Halles Ouest", "Amandine", "Le Moulin", "Beaumont", "Soleil Levant",
        "Clémentine"]),
    "Thai": (["{} Thai", "{} Thai Kitchen", "Baan {}", "{}"], [
        "Siam Orchid", "Khao Hom", "Sabai", "Chiang Mai Garden", "Krua", "Jasmine", "Lanna",
        "Basil Corner", "Nong Khai", "Suan", "Pla Thong", "Ruen", "Rim Nam", "Sukhothai"]),
    "Chinese": (["{}", "{} Kitchen", "{} House", "{} Noodle Bar"], [
        "Jade Garden", "Golden Lotus", "Dragon Well", "Red Lantern", "Hunan Star",
        "Sichuan Pepper", "Bamboo Court", "Lucky Crane", "Shanghai Moon", "Pearl River",
        "Jasmine Court", "Silk Road", "Twin Dragons", "Lotus Pavilion"]),
    "Japanese": (["{}", "{} Japanese Kitchen", "Restaurant {}"], [
        "Hinoki", "Kaze", "Tsubaki", "Kinoko", "Sakura Tei", "Yuzu", "Tomoe", "Ume", "Hanabi",
        "Kotobuki", "Matsu"]),
    "Sushi Bars": (["Sushi {}", "{} Sushi", "{} Sushi Bar"], [
        "Hana", "Kaiyo", "Nami", "Sora", "Tsuki", "Umi", "Shiro", "Kanpai", "Mizu", "Koi", "Hoshi",
        "Sakana"]),
    "Ramen": (["{} Ramen", "Ramen {}", "Menya {}"], [
        "Kazan", "Hikari", "Taiyo", "Nagi", "Yokocho", "Ichigo", "Daruma", "Kumo", "Hinata",
        "Tonbo"]),
    "Izakaya": (["Izakaya {}", "{} Izakaya"], [
        "Tomo", "Kaiju", "Akari", "Sakaba", "Hotaru", "Nonbei", "Chochin", "Kemuri", "Yoru"]),
    "Mexican": (["Taqueria {}", "{} Cocina", "{} Cantina", "{}"], [
        "Los Gallos", "La Palma", "Casa Azul", "El Nopal", "Dos Caminos", "Agave Azul",
        "La Milpa", "Tres Hermanas", "El Sol de Oaxaca", "Calavera Roja", "Maíz", "Tierra Roja",
        "La Cocinita", "Mariposa", "Los Arcos", "Tamarindo"]),
    "Indian": (["{}", "{} Indian Cuisine", "{} Kitchen"], [
        "Saffron House", "Tandoor Nights", "Masala Darbar", "Chutney Junction", "Kesar",
        "Spice Route", "Rasoi", "Curry Leaf", "Namaste Bay", "Mirchi", "Chaat Corner",
        "Himalaya House", "Tulsi", "Jaipur Rose"]),
    "Korean": (["{}", "{} BBQ", "{} Korean Kitchen"], [
        "Seoul Garden", "Hanok", "Bap Jip", "Gangnam Table", "Jeju House", "Mapo Grill",
        "Sura", "Maru", "Ondol", "Bada", "Hodu"]),
    "Vietnamese": (["Pho {}", "{}", "{} Vietnamese Kitchen"], [
        "Little Hue", "Saigon Alley", "Lotus Leaf", "Hanoi House", "Mekong",
        "Banh Mi Corner", "Golden Bamboo", "Song Que", "Com Nha", "Hoa Mai", "Perfume River"]),
    "Mediterranean": (["{}", "{} Kitchen", "{} Grill"], [
        "Olive & Fig", "Cypress", "Zaytoon", "Levant", "Anchor & Olive", "Aegean Table",
        "Sumac", "Pomegranate", "Laurel & Thyme", "Fig Tree", "Orzo"]),
    "Greek": (["Taverna {}", "{}", "{} Greek Kitchen"], [
        "Nikos", "Kalamata", "Santorini Blue", "Opa", "Mykonos", "Athena", "Philoxenia", "Ikaria",
        "Thalassa"]),
    "Middle Eastern": (["{}", "{} Grill", "{} Kitchen"], [
        "Cedar House", "Beirut Nights", "Al Sufra", "Damask", "Petra", "Za'atar",
        "Sahara Rose", "Saffron Tent", "Jasmine Gate", "Oasis Table"]),
    "American (New)": (["{}", "The {}", "{} Kitchen", "{} Tavern"], [
        "Copper Table", "Drifting Oak", "Foghorn", "Harvest Commons", "Iron Gate",
        "Tin Roof", "Marigold", "Sparrow & Pine", "Quarry", "Northstar", "Little Brass",
        "Cable & Crumb", "Larkspur", "Hearth & Hound", "Juniper", "Wildwood"]),
    "Seafood": (["{}", "{} Oyster Bar", "{} Fish House"], [
        "Harbor & Vine", "Salt Point", "Pier Nine", "Tidewater", "Driftwood",
        "Blue Heron", "Bay Catch", "Anchor Light", "Salt & Brine", "Half Shell", "Mooring"]),
    "Steakhouses": (["{} Steakhouse", "{} Chophouse", "{}"], [
        "Ember", "Cattle Ridge", "Prime & Pine", "Cast Iron", "Redwood",
        "Bellwether", "Flint", "Hearthstone", "Iron Range"]),
    "Burgers": (["{} Burgers", "{} Burger Bar", "{}"], [
        "Patty Wagon", "Big Fog", "Griddle Street", "Stack House", "Chuck & Bun",
        "Two Buns", "Flat Top", "Bun Run", "Fog City", "Buttered Bun", "Lucky Patty"]),
    "Vegan": (["{}", "{} Vegan Kitchen", "{} Plant Kitchen"], [
        "Green Lantern", "Sprout & Root", "Leaf", "Fern", "Golden Beet", "Herbivore Hill",
        "Clover Table", "Sunflower", "Wild Kale", "Bloom", "Good Earth Table", "Sprig",
        "Mossy Stone", "Green Fork", "Radish", "Olive Branch", "Meadowlark"]),
    "Cafes": (["{} Cafe", "Cafe {}", "{} Coffee & Kitchen"], [
        "Morning Fog", "Blue Door", "Sunday", "Little Wren", "Lantern", "Marmalade",
        "Honeybee", "Common Ground", "Paper Plane", "Daybreak", "Crumb & Kettle", "Sunny Side",
        "Window Seat"]),
    "Wine Bars": (["{} Wine Bar", "{} Wine Merchant", "{}"], [
        "Cellar & Vine", "Vintage Row", "Terroir", "The Corkscrew", "Barrel Room",
        "Decanter", "Crush", "Vineyard Lane", "Cork & Cask"]),
    "Spanish": (["{}", "Bodega {}", "Taberna {}"], [
        "Sol", "Alta", "Txoko", "Mercado", "Andaluz", "Calle Ocho", "La Rioja", "Azahar",
        "Olivar"]),
    "Ethiopian": (["{}", "{} Ethiopian Restaurant", "{} Kitchen"], [
        "Lalibela", "Abyssinia", "Axum", "Gondar", "Blue Nile", "Addis", "Selam"]),
}

# Atmosphere feature -> review sentences; each sentence names the feature literally so a
# free-text search ("patio", "romantic", ...) finds it.
FEATURES: dict[str, list[str]] = {
    "patio": [
        "We sat on the back patio and it was lovely in the afternoon sun.",
        "The heated patio makes outdoor dining work even on a foggy evening.",
        "Grab a table on the patio if you can; it is the best seat in the house.",
    ],
    "outdoor seating": [
        "There is outdoor seating on the sidewalk, which is great when the weather is nice.",
        "They have a few tables of outdoor seating and they welcomed our dog.",
    ],
    "romantic": [
        "Candlelit and romantic, perfect for an anniversary dinner.",
        "The dim lighting and soft music make it a romantic spot.",
        "Quietly romantic room with only a handful of tables.",
    ],
    "date night": [
        "This is my go-to place for date night.",
        "Came here for date night and we lingered for hours over dessert.",
    ],
    "family-friendly": [
        "Very family-friendly; the staff were patient with our toddler.",
        "A family-friendly place with high chairs and a relaxed vibe.",
    ],
    "kid-friendly": [
        "Kid-friendly menu and they bring crayons for the little ones.",
        "Our kids loved it, and it is genuinely kid-friendly without being noisy.",
    ],
    "good for groups": [
        "Good for groups: they pushed tables together for our party of ten.",
        "The long communal tables make it good for groups.",
    ],
    "quiet": [
        "It is quiet enough to actually hold a conversation.",
        "A calm, quiet dining room even on a Friday night.",
    ],
    "lively": [
        "The room is lively and loud, with a great buzz at the bar.",
        "Lively atmosphere and a good soundtrack; not the place for a quiet talk.",
    ],
    "views": [
        "The views of the bay from the window tables are stunning.",
        "Ask for a window seat: the city views at sunset are worth it.",
    ],
    "vegetarian options": [
        "Plenty of vegetarian options, clearly marked on the menu.",
        "My vegetarian friend had lots of vegetarian options to choose from.",
    ],
    "birthday": [
        "We celebrated a birthday here and they brought out a dessert with a candle.",
        "Great spot for a birthday dinner; the staff sang for my sister.",
    ],
    "happy hour": [
        "The happy hour deals on weekdays are excellent.",
        "Come for happy hour: half-price small plates until 6.",
    ],
    "late night": [
        "One of the few places open for a late night bite.",
        "Perfect for a late night meal after a show.",
    ],
}

# Pairs that would contradict each other in one restaurant's reviews.
EXCLUSIVE_FEATURES: list[tuple[str, str]] = [
    ("quiet", "lively"), ("quiet", "late night"), ("romantic", "lively"),
    ("romantic", "kid-friendly"), ("romantic", "family-friendly"),
]

# How much more likely a feature is for restaurants that have a given trait.
FEATURE_AFFINITY: dict[str, list[str]] = {
    "romantic": ["French", "Italian", "Wine Bars", "Spanish", "expensive", "luxury"],
    "date night": ["French", "Italian", "Wine Bars", "Sushi Bars", "Spanish", "expensive"],
    "family-friendly": ["Pizza", "Mexican", "Burgers", "Chinese", "cheap"],
    "kid-friendly": ["Pizza", "Burgers", "Cafes", "Mexican", "cheap"],
    "good for groups": ["Izakaya", "Korean", "Spanish", "Pizza", "Mexican", "Ethiopian"],
    "vegetarian options": ["Indian", "Vegan", "Ethiopian", "Middle Eastern", "Thai"],
    "lively": ["Izakaya", "Mexican", "Spanish", "Wine Bars", "Burgers"],
    "late night": ["Izakaya", "Ramen", "Korean", "Burgers"],
    "views": ["Seafood", "Steakhouses", "luxury"],
    "patio": ["Pizza", "Mexican", "Mediterranean", "Cafes", "Wine Bars"],
}

FOOD_PRAISE: list[str] = [
    "The {dish} was outstanding.",
    "Do not skip the {dish}; it is the reason we keep coming back.",
    "I ordered the {dish} and it was exactly right.",
    "Their {dish} is the best I have had in the area.",
    "The {dish} was generous and full of flavor.",
]
FOOD_MIXED: list[str] = [
    "The {dish} was good but not as memorable as I hoped.",
    "The {dish} was decent, though not quite worth the hype.",
    "The {dish} was fine; some of the other plates were uneven.",
]
FOOD_POOR: list[str] = [
    "The {dish} was a letdown after all the hype.",
    "Honestly the {dish} was disappointing for the price.",
]
SERVICE_GOOD: list[str] = [
    "Service was warm and attentive.",
    "Our server had great recommendations.",
    "Friendly staff and the food came out quickly.",
    "Worth every penny.",
]
SERVICE_MIXED: list[str] = [
    "Service was a little slow on a busy night.",
    "Expect a wait without a reservation.",
    "A bit pricey for the portion sizes.",
]
SERVICE_POOR: list[str] = [
    "We waited almost an hour for our mains.",
    "The staff seemed overwhelmed and forgot part of our order.",
]

PRICE_WORDS: dict[str, str] = {
    "cheap": "an inexpensive",
    "moderate": "a moderately priced",
    "expensive": "an upscale",
    "luxury": "a high-end",
}

# Opening-hour layouts: a meal style -> alternatives (each a list of lines).
HOURS: dict[str, list[list[str]]] = {
    "dinner": [
        ["Mon-Thu 5 PM - 10 PM", "Fri-Sat 5 PM - 11 PM", "Sun 5 PM - 9 PM"],
        ["Tue-Thu 5:30 PM - 9:30 PM", "Fri-Sat 5:30 PM - 10:30 PM", "Sun 5 PM - 9 PM"],
        ["Mon-Sun 5 PM - 9 PM"],
        ["Wed-Sun 6 PM - 10 PM"],
    ],
    "lunch and dinner": [
        ["Mon-Fri 11 AM - 2:30 PM", "Mon-Fri 5 PM - 9:30 PM", "Sat-Sun 11 AM - 10 PM"],
        ["Mon-Sun 11 AM - 9 PM"],
        ["Mon-Sat 11:30 AM - 10 PM", "Sun 12 PM - 9 PM"],
        ["Tue-Sun 11 AM - 3 PM", "Tue-Sun 5 PM - 9 PM"],
    ],
    "daytime": [
        ["Mon-Fri 7 AM - 3 PM", "Sat-Sun 8 AM - 4 PM"],
        ["Mon-Sun 8 AM - 2 PM"],
        ["Tue-Sun 7:30 AM - 3:30 PM"],
    ],
    "late": [
        ["Mon-Sun 5 PM - 2 AM"],
        ["Mon-Thu 5 PM - 12 AM", "Fri-Sat 5 PM - 2 AM", "Sun 5 PM - 11 PM"],
        ["Mon-Sun 11:30 AM - 12 AM"],
    ],
}

# Primary cuisine -> meal style used to pick opening hours (others: "lunch and dinner").
MEAL_STYLE: dict[str, str] = {
    "Cafes": "daytime",
    "French": "dinner",
    "Steakhouses": "dinner",
    "Wine Bars": "late",
    "Izakaya": "late",
    "Ramen": "late",
    "Sushi Bars": "dinner",
    "Spanish": "dinner",
}
