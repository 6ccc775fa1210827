"""The offline knowledge parser on KBs it was not written for: a dentists directory and a bike shop.

Every expected answer is computed from the records in tests/data/kb_domains.py, so
these tests check the SQL's rows, not the SQL's text.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core_engine.knowledge.kb import SQLiteKB
from core_engine.knowledge.offline import OfflineKnowledgeParser, SQLKnowledge
from core_engine.knowledge.vocab import vocabulary_for
from core_engine.spec.model import Field, Spec, Worksheet
from core_engine.dialogue.state import KBRecord
from storage.kb.importer import import_records
from tests.data.kb_domains import bike_shop, dentists

DENTISTS = dentists()
BIKES = bike_shop()


def _spec(table: str, description: str, fields: dict[str, str]) -> Spec:
    ws = Worksheet(name=table, kind="kb", description=description,
                   fields=[Field(name=n, description=d) for n, d in fields.items()])
    return Spec(name=f"{table}_agent", worksheets=[ws])


@pytest.fixture(scope="module", autouse=True)
def vector_cache(tmp_path_factory):
    old = os.environ.get("GENIE_CACHE_DIR")
    os.environ["GENIE_CACHE_DIR"] = str(tmp_path_factory.mktemp("vectors"))
    yield
    if old is None:
        os.environ.pop("GENIE_CACHE_DIR", None)
    else:
        os.environ["GENIE_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def dentist_kb(tmp_path_factory, vector_cache):
    path = tmp_path_factory.mktemp("dent") / "kb.sqlite"
    import_records(path, DENTISTS, "dentists", free_text=["description"])
    spec = _spec("dentists", "Dentists with their specialty, city, spoken languages and fees.", {
        "rating": "Average patient rating out of 5 stars", "checkup_price": "Price of a checkup in dollars",
        "years_experience": "Years in practice", "languages": "Languages the dentist speaks"})
    with SQLiteKB(path) as kb:
        yield kb, spec


@pytest.fixture(scope="module")
def bike_kb(tmp_path_factory, vector_cache):
    path = tmp_path_factory.mktemp("bike") / "kb.sqlite"
    import_records(path, BIKES, "products", free_text=["details"])
    spec = _spec("products", "Bikes and accessories the shop sells.", {
        "price": "Price in dollars", "rating": "Customer rating out of 5"})
    with SQLiteKB(path) as kb:
        yield kb, spec


def ask(fixture, question):
    kb, spec = fixture
    query, rules = OfflineKnowledgeParser().parse(question, kb, spec)
    return kb.execute(query.sql()).rows, rules


def names(rows, key="name"):
    return sorted(r[key] for r in rows)


def expect(records, pred, key="name"):
    return sorted(r[key] for r in records if pred(r))


def test_specialty_word_and_a_list_value_combine(dentist_kb):
    rows, rules = ask(dentist_kb, "pediatric dentist who speaks Spanish")
    assert names(rows) == expect(DENTISTS, lambda r: r["specialty"] == "Pediatric Dentistry"
                                 and "Spanish" in r["languages"])
    value_rules = {(r["column"], r["value"]) for r in rules if r["rule"] == "value"}
    assert value_rules == {("specialty", "Pediatric Dentistry"), ("languages", "Spanish")}
    assert all(r["words"] for r in rules if r["rule"] == "value")


def test_a_title_and_name_select_one_row(dentist_kb):
    rows, rules = ask(dentist_kb, "tell me about Dr. Grace Garcia")
    assert names(rows) == ["Dr. Grace Garcia"]
    rows, _ = ask(dentist_kb, "Is Garcia available?")
    assert names(rows) == ["Dr. Grace Garcia"]


def test_titles_and_stopwords_alone_never_match_everything(dentist_kb):
    rows, rules = ask(dentist_kb, "tell me about Dr. Nobody")
    assert not [r for r in rules if r["rule"] == "value"]
    assert len(rows) < len(DENTISTS)


def test_a_profession_word_finds_its_specialty_by_spelling_and_by_meaning(dentist_kb):
    orthodontists = expect(DENTISTS, lambda r: r["specialty"] == "Orthodontics")
    for question in ("do you have an orthodontist?", "any orthodonist in town"):  # the second has a typo
        rows, rules = ask(dentist_kb, question)
        assert names(rows) == orthodontists, question
    rows, rules = ask(dentist_kb, "I need a kids dentist")
    assert names(rows) == expect(DENTISTS, lambda r: r["specialty"] == "Pediatric Dentistry")
    rule = [r for r in rules if r["rule"] == "value"][0]
    assert rule["match"] == "semantic" and rule["score"] >= 0.6 and rule["runner_up"]["value"]


def test_comparisons_pick_the_column_by_meaning(dentist_kb):
    rows, rules = ask(dentist_kb, "dentists with at least 4.5 stars")
    assert names(rows) == expect(DENTISTS, lambda r: r["rating"] >= 4.5)
    assert [r["column"] for r in rules if r["rule"] == "compare"] == ["rating"]
    rows, _ = ask(dentist_kb, "a checkup under $100 in Lakeside")
    assert names(rows) == expect(DENTISTS, lambda r: r["checkup_price"] < 100 and r["city"] == "Lakeside")
    rows, _ = ask(dentist_kb, "general dentists rated 4.5 or higher")
    assert names(rows) == expect(DENTISTS, lambda r: r["specialty"] == "General Dentistry" and r["rating"] >= 4.5)
    rows, _ = ask(dentist_kb, "more than 20 years of experience")
    assert names(rows) == expect(DENTISTS, lambda r: r["years_experience"] > 20)


def test_superlatives_order_by_the_column_they_mean(dentist_kb):
    rows, rules = ask(dentist_kb, "the cheapest orthodontist")
    prices = [r["checkup_price"] for r in rows]
    assert prices == sorted(prices) and {r["specialty"] for r in rows} == {"Orthodontics"}
    rows, rules = ask(dentist_kb, "best rated endodontist")  # singular: the one best row
    assert [r["rating"] for r in rows] == [max(r["rating"] for r in DENTISTS if r["specialty"] == "Endodontics")]
    assert any(r["rule"] == "limit" for r in rules)
    rows, _ = ask(dentist_kb, "best rated endodontists")
    ratings = [r["rating"] for r in rows]
    assert ratings == sorted(ratings, reverse=True) and len(rows) == 3


def test_negation_excludes_a_value(dentist_kb):
    rows, _ = ask(dentist_kb, "Spanish speaking dentists not in Riverton")
    assert names(rows) == expect(DENTISTS, lambda r: "Spanish" in r["languages"] and r["city"] != "Riverton")


def test_free_text_by_meaning_fused_with_bm25(dentist_kb):
    kb, _ = dentist_kb
    before = kb.path.stat().st_mtime_ns, kb.path.stat().st_size
    rows, rules = ask(dentist_kb, "someone good with anxious patients")
    assert (kb.path.stat().st_mtime_ns, kb.path.stat().st_size) == before  # vectors live in the cache dir
    calm = {r["name"] for i, r in enumerate(DENTISTS) if i % 7 == 0}
    assert rows and rows[0]["name"] in calm
    assert len({r["name"] for r in rows[:3]} & calm) >= 2
    free = [r for r in rules if r["rule"] == "free_text"][0]
    assert free["rank"] == "rrf(bm25, vector)" and free["vector_hits"] >= 1


def test_bike_shop_values_numbers_and_meaning(bike_kb):
    rows, _ = ask(bike_kb, "electric bikes under $3000")
    assert names(rows, "product") == expect(BIKES, lambda r: r["category"] == "Electric Bike" and r["price"] < 3000,
                                            "product")
    rows, _ = ask(bike_kb, "cheapest helmet")
    assert rows[0]["product"] == min((r for r in BIKES if r["category"] == "Helmet"), key=lambda r: r["price"])["product"]
    rows, _ = ask(bike_kb, "red road bikes")
    assert names(rows, "product") == expect(BIKES, lambda r: r["category"] == "Road Bike" and "Red" in r["colors"],
                                            "product")
    rows, rules = ask(bike_kb, "most expensive road bike")
    assert [r["product"] for r in rows] == [max((r for r in BIKES if r["category"] == "Road Bike"),
                                                key=lambda r: r["price"])["product"]]
    rows, _ = ask(bike_kb, "tell me about the Velocity SL")
    assert names(rows, "product") == ["Velocity SL"]
    rows, _ = ask(bike_kb, "something so my bike doesn't get stolen")
    assert rows and rows[0]["category"] == "Lock"


def test_the_vocabulary_is_built_once_per_file_version_and_shared(tmp_path, dentist_kb):
    kb, spec = dentist_kb
    with SQLiteKB(kb.path) as other:
        assert vocabulary_for(other) is vocabulary_for(kb)  # a second session's connection shares it
    vocab = vocabulary_for(kb).tables["dentists"]
    assert ("pediatric", "dentistry") in vocab.phrases and ("grace", "garcia") in vocab.phrases
    assert "name" in vocab.name_columns and "specialty" not in vocab.name_columns
    path = tmp_path / "kb.sqlite"
    import_records(path, DENTISTS[:10], "dentists")
    with SQLiteKB(path) as small:
        first = vocabulary_for(small)
    import_records(path, DENTISTS, "dentists", replace=True)
    with SQLiteKB(path) as again:
        assert vocabulary_for(again) is not first  # a re-import is a new version


def test_the_backend_traces_each_condition_and_stays_read_only(dentist_kb):
    kb, spec = dentist_kb
    record, trace = KBRecord(var="answer", query="pediatric dentist who speaks Spanish"), []
    SQLKnowledge(kb, OfflineKnowledgeParser()).run(record, spec, trace)
    assert record.status == "done" and len(record.result) == len(ask(dentist_kb, record.query)[0])
    assert record.sql.startswith("SELECT") and trace[0]["rules"]
    rows = kb.execute("SELECT count(*) AS n FROM dentists").rows
    assert rows[0]["n"] == len(DENTISTS)


def test_lexical_fallback_keeps_exact_matching_and_says_so(dentist_kb, monkeypatch):
    monkeypatch.setenv("GENIE_EMBEDDING_MODEL", "lexical")
    rows, rules = ask(dentist_kb, "orthodontics in Harbor City")
    assert names(rows) == expect(DENTISTS, lambda r: r["specialty"] == "Orthodontics" and r["city"] == "Harbor City")
    assert any(r["rule"] == "embedder" and "lexical" in r["fallback"] for r in rules)


def test_no_sample_words_in_any_knowledge_module():
    from tests.test_generalisation import named_samples

    root = Path(__file__).resolve().parent.parent / "core_engine"
    modules = sorted((root / "knowledge").glob("*.py"))
    assert len(modules) > 5 and named_samples(modules) == []


def test_sessions_on_threads_share_one_vocabulary_and_agree(dentist_kb):
    from concurrent.futures import ThreadPoolExecutor

    kb, spec = dentist_kb
    question = "orthodontists in Lakeside with at least 4 stars"

    def session(_):
        with SQLiteKB(kb.path) as own:
            query, _ = OfflineKnowledgeParser().parse(question, own, spec)
            return id(vocabulary_for(own)), names(own.execute(query.sql()).rows)

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(session, range(8)))
    assert len({r[0] for r in results}) == 1
    assert all(r[1] == expect(DENTISTS, lambda d: d["specialty"] == "Orthodontics" and d["city"] == "Lakeside"
                              and d["rating"] >= 4) for r in results)


def test_an_unwritable_cache_dir_means_full_text_only_and_says_so(tmp_path, monkeypatch):
    path = tmp_path / "kb.sqlite"
    import_records(path, DENTISTS, "dentists", free_text=["description"])
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("x")
    monkeypatch.setenv("GENIE_CACHE_DIR", str(blocker / "cache"))
    with SQLiteKB(path) as kb:
        spec = _spec("dentists", "Dentists.", {})
        rows, rules = ask((kb, spec), "someone good with anxious patients")
    free = [r for r in rules if r["rule"] == "free_text"][0]
    assert free["rank"] == "bm25" and "cannot be written" in free["vectors"]
    assert rows and all("patients" in r["description"].lower() for r in rows)
