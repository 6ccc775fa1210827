"""The `offline` parser: everyday phrasing -> formal statements, deterministic, no network.

It reads the utterance against what it can know without a model: the spec
(field types, enum values and descriptions, predicates), the previous state,
the agent acts of the previous turn (the question just asked, reported rows,
proposals) and, when there is one, the KB's values. Rules are tried in a
fixed order and every statement it emits comes with a rule entry naming the
words that produced it, so the studio can show why a turn was read as it was.

    rule order: yes/no to a proposal -> yes/no to the question asked -> an introduction ("my name is ...")
    -> small talk -> choose a reported row -> lists of items (lists/: add, swap, drop, both, per item)
    -> refusal -> "same as before" -> a narrowed search ("not Thai")
    -> change of mind -> special request -> a request naming items by KB rows (the task that holds them)
    -> typed answer to the question asked -> opening turn (task description
    + questions) -> a second task -> a task by meaning -> a request naming KB rows -> question / search
    -> task description -> a value before its question -> problem description
    -> text answer (one or several values) -> values for other fields -> values for an unopened
    worksheet -> an "Other" option -> a search by KB words -> no match
    (and at the end, a yes to a summary moves after the edits made in the same turn)

Rule names in the trace (statements): answer-to-ask, answer-yes-no, confirm-yes, confirm-no,
multi-value, several-values, extra-value, value-for-other-field, unopened-field, free-text,
introduction, change-of-mind, choose-result, refusal, same-as-previous, refine-search,
special-request, question, question-fills-field, search, task-description, new-task, clause-option,
value-before-asked, problem-description, catch-all, proposal-accepted, predicate-of-proposal.
Notes (no statement): chit-chat, negation, focus, question-about-state, question-no-kb,
task-request, proposal-declined, no-match, empty, error, option-by-meaning, counted-thing.
docs/offline_parser.md says what each reads and what the parser does not handle.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from ...errors import GenieError
from ...spec.model import REFUSAL, Field, day_first, evening_hours, parse_type, past_field
from ...dialogue.state import TaskRecord, ref_target
from ..base import ParseContext, ParseResult
from .changes.edits import AVOIDED, change_rule, same_as_rule, special_request_rule
from .focus import asked_code, decontextualise, focus, is_bare_request, narrow_previous, state_question
from .kb_rows.items import item_request, named_answer, names_for, said_names
from .lists.membership import membership_rule
from .lists.spread import spread_rule
from .parts.one_constructor import one_constructor
from .parts.addresses import (address_answer, address_beside, address_parts, address_region, is_address_field,
                              is_postcode_field, new_postcode_in, place_after_name, postcode_ends,
                              tidy_address, with_town)
from .parts.colours import rest_of_answer
from .parts.made import make_beside_colour
from .parts.comma_parts import leading_part
from .parts.contrast import contrast_answer
from .answering.counted import zero_counts
from .answering.bool_mentions import along_flag, bool_mentions, declined_tail, second_flag
from .answering.gated_record import gated_record
from .answering.then_asked import answer_then_question
from .answering.schedule import schedule_pass
from .answering.hedged import floated_range, hedged_value
from .answering.named_not import refused_by_name
from .answering.not_done import not_done_refusal
from .answering.listed import listed_digits
from .answering.option_story import story_after_option
from .parts.story_after import story_after
from .parts.rooms import room_after_row
from .parts.told_story import flagged_story, story_in_opening
from .changes.leaving import HOLD_BACK, leaves_task
from .words.semantic import plan_elsewhere
from .answering.no_preference import no_preference
from .words.day_parts import day_part_option
from .parts.place_told import place_in_opening
from .opening.for_that import task_for_that
from .opening.offer_asked import offer_asked_for_oneself
from .opening.next_task import next_task
from .changes.told_again import story_told_again, told_again
from .changes.item_withdrawn import item_withdrawn
from .words.measures.dimensions import measure_of, measures
from .answering.slots import counts_people
from .changes.found_later import code_tokens, found_later, give_found_code, names_another_thing
from .answering.age_flags import age_flag
from .answering.standing_no import go_ahead_after_no
from .parts.described import described_parts
from .parts.elsewhere import (AGREEING, TYPED_HOWS, bare_flag, name_elsewhere, option_elsewhere, requested_values,
                              typed_elsewhere)
from .words.spelling import kb_words, respelled
from .words.taken_back import taken_back
from .answering.bounds import bound_answer
from .opening.task_values import task_by_values
from .answering.declined import declined_optional
from .answering.kinds_of import kind_named
from .parts.labelled import labelled_parts
from .parts.labelled_turn import labelled_turn, name_sentence
from .parts.given_name import given_name, name_under_me
from .parts.carried import carried_from_questions
from .changes.head_count import head_count_change
from .parts.counts_left import counts_left
from .parts.contacts import contacts_left
from .parts.by_preposition import options_by_preposition
from .parts.name_fix import name_corrected
from .parts.same_deal import same_deal
from .kb_rows.follow_up import follow_up_search
from .parts.time_range import hours_from_range
from .parts.proper_names import proper_name_answer, proper_name_in_opening, when_in_opening
from .parts.option_words import described_option
from .kb_rows.codes import as_stored
from .opening.given_values import task_by_reference
from .opening.told_done import told_done_task
from .answering.references import shaped_reference
from .words.libvalues import is_phone_field
from .kb_rows.change import row_change
from .initiatives import introduction, labelled_numbers, labelled_only, labelled_values, new_task, other_fields, unopened_fields
from .intents import (ANONYMOUS, late_refusal, same_as, negates_described, asks_to, change_marker, chit_chat, clean_question, closing, declines, is_question, negates_field, plea,
                              question_sentences, refusal, request_only, search_phrase, sentences, task_request, waiting,
                              without_self_questions)
from .words.answers import NEGATIVE_QUESTION, NOTHING_OF_THE_KIND, AnswerReader, echoed_flag, enough_said, flag_named, is_make_field, pro_form_flag, said_words
from .words.answers import is_message_field, none_clause, not_a_name
from .words.match import HEDGES, STOPWORDS, Bag, content_stems, field_mention, field_stems, holds, same_word, stem
from .words.negation import OPTIONS_SAID_WITH_NOT, negations, options_said_with_not, refine_search
from .kb_rows.requests import row_request
from .kb_rows.choices import accept_proposal, choose_row
from .answering.clause_options import clause_options
from .changes.corrections import clause_correction, correction_rule
from .changes.shaped import shaped_correction
from .changes.then_answer import answer_after_correction
from .words.semantic_index import TASK_MARGIN, TASK_THRESHOLD, clean
from .words.semantic import (apply_reading, control_rule, doubtful_value, option_words_task, owned_option,
                             rank_tasks, root_of, semantic_control, semantic_enum, semantic_task, shared_options, switch_task,
                             task_already_open, task_roots)
from .answering.slots import (ADDRESSEE, KBVocabulary, Mention, StateView, code_value, column_mentions, find_mentions,
                            said_texts, shape)
from .opening.asked_task import asked_task
from .opening.tasks import describe_task, kwargs_text, literal, open_activated, predicted_answer, search_query, several_codes, task_verbs
from .words.measures.months import is_month_field
from .words.thing_names import thing_name
from .words.typed import restore_apostrophes
from .words.value_labels import label_kind, label_start
from .words.values import DATE_HELD, DAY_FIRST, EVENING, PERSON_NAME, clean_name, find_codes, find_dates, find_numbers, find_postcodes, find_times, free_text, normalise, right_now, yes_no

_SEARCH_START = re.compile(r"^(?:(?:i\s+(?:would|'?d)\s+like|i\s+want|i'?d\s+love|let'?s)\s+(?:to\s+)?)?"
                           r"(?:book|reserve|find|get|try|look\s+for|search\s+for)\b", re.I)
_LOOKING_FOR = re.compile(r"^(?:(?:hi|hello|hey|so|well)[,!.\s]+)*(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+looking\s+for|"
                          r"(?:something|anything)\s+(?:for|about|on|with|that|like))\b", re.I)
"""A search without a question or a KB value: "something for my 8 year old who loves dinosaurs"."""
_INTERROGATIVE = re.compile(r"^\W*(?:what|which|when|where|who|whom|whose|why|how|is|are|do|does|did|can|could|"
                            r"will|would|should|shall|may)\b", re.I)
_WH_QUESTION = re.compile(r"^\W*(?:(?:hi|hello|hey|so|and|ok|okay|btw|out\s+of\s+(?:interest|curiosity)|"
                          r"just\s+(?:wondering|curious))[,\s]+)*(?:what|which|when|where|who|whom|whose|"
                          r"why|how|is\s+there|are\s+there|do\s+you\s+have|tell\s+me|"
                          r"(?:do|does|are|is|can|could|will)\s+(?:any|all|some|none|either)\s+of\s+(?:your|the|you)|"
                          r"(?:do|does|are|is)\s+(?:any|all)\s+(?:your\s+)?[a-z]+\s)\b", re.I)
"""Questions about the agent's world: wh-questions, "is there", "do you have", and "do any of your vets ...",
"are any of your tariffs ...": the KB answers them (a question about the user's own thing may still name a task)."""
_OWN_THING = re.compile(r"\b(?:my|our)\b", re.I)
_HYPOTHETICAL = re.compile(r"^\W*(?:(?:hi|hello|hey|so|and|ok|okay|oh|quick\s+question)[,!\s]+)*"
                           r"(?:if|say|suppose|what\s+if|what\s+happens\s+if)\s+(?:i|we)\b", re.I)
"""A question about what would follow if the user did something ("if I drop a class, do I lose my visa?")."""
_HOW_TO = re.compile(r"^\W*(?:(?:hi|hello|hey|so|and|ok|okay)[,\s]+)*how\s+(?:do|can|could|should|would)\b", re.I)
WH_TASK_THRESHOLD = 0.70
"""A wh-question is read as a task only when it says a task's own texts nearly verbatim ("where is my package"
scores 0.83 against that example; how-to and catalogue questions score 0.3-0.6)."""
WH_TASK_MARGIN = 0.20
REQUEST_TASK_THRESHOLD = TASK_THRESHOLD - TASK_MARGIN
REQUEST_TASK_MARGIN = 2 * TASK_MARGIN
"""A request for a task's own verb ("Puncture on my Brompton, can I bring it in tomorrow?": "bring" begins the
description of Book Repair) already says a task is wanted: its reading by meaning may be lower (0.42 there, against
0.19 for the runner-up), with a wider margin."""
_FAREWELL = re.compile(r"\b(?:bye|goodbye|bye-bye|see\s+ya|see\s+you|that'?s\s+all|that\s+is\s+all|that'?s\s+everything|"
                       r"have\s+a\s+(?:good|nice|great)\s+(?:day|night|one|evening))\b", re.I)
_THANKS = re.compile(r"\b(?:thanks|thank|thx|ty|cheers|appreciate)", re.I)
_GREETING = re.compile(r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?[,.!\s]+", re.I)
_DAY_PART_ALONE = re.compile(r"\W*(?:good\s+)?(?:morning|afternoon|evening|night)s?\W*", re.I)
"""A part of the day said alone: to a question asked, its answer ("Evening."), not a greeting."""
def _after_words(text: str, words: str) -> str:
    """What the turn says after `words` (the whole turn when they are not said as such: "dunno" for "don't know")."""
    at = text.lower().find(words.lower())
    return text[at + len(words):] if at >= 0 else text


def _said_before_tag(text: str) -> str | None:
    """The statement before a question tagged on after a comma: "let's say 4, I can always extend right?",
    "6 of us, is that ok?" -> "let's say 4", "6 of us"; None when the number is inside the question itself
    ("how many units is CS 448?") or the question has numbers of its own."""
    kept = []
    for piece in re.split(r"(?<=\?)", text):
        if not piece.strip():
            continue
        if not piece.rstrip().endswith("?"):
            kept.append(piece)
            continue
        cut = max(piece.rfind(","), piece.rfind("."), piece.rfind(";"), piece.rfind(" - "))
        head, tail = (piece[:cut], piece[cut + 1:]) if cut > 0 else ("", piece)
        if re.search(r"\d", tail) or not _BARE_COUNT.fullmatch(head.strip()) or not _TAG.search(tail):
            continue  # only a count said alone before the tag: not "the max is 8, right?", "she's 12, is that ok?"
        kept.append(head)
    said = " ".join(p.strip() for p in kept if p.strip())
    return said if re.search(r"\d", said) else None


_TAG = re.compile(r"(?:\b(?:right|yeah|ok|okay|alright|fine|correct|innit|yes|no)|^\s*(?:is|would|will|does)\s+(?:that|it|this)"
                  r"\s+(?:be\s+)?(?:ok|okay|alright|fine|possible|enough|work|do)(?:\s+for\s+you)?)\W*\?\s*$", re.I)
"""A question tagged on to a statement: "..., right?", "..., is that ok?" (it asks nothing of its own)."""
_BARE_COUNT = re.compile(r"\W*(?:(?:ok|so|um+|er+m?|well|right|hmm+|let'?s\s+say|say|maybe|about|around|probably|prob|"
                         r"roughly|like)\W+)*\d{1,3}(?:\s+(?:of\s+us|people|persons|guests|adults|players|tickets|please))?\W*",
                         re.I)
"""A count said alone before a question tag: "let's say 4", "6 of us"."""
_WH_START = re.compile(r"^\W*(?:how|what|which|when|where|who|why|whats|what's|hows|how's)\b", re.I)
_QUESTION_WORD = re.compile(r"\b(?:what|how\s+much|how\s+long|which|when|where|who)\b", re.I)
"""A question word anywhere: the turn asks something, even with no question mark."""
_WEEKDAY_BEFORE = re.compile(r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s*(?:the\s+)?$", re.I)
"""A weekday said right before a date ("friday 1st august")."""
_GRUDGING = re.compile(r"^\W*(?:(?:ugh|oh|well|ok(?:ay)?|fine|alright|go\s+on\s+then|sure|if\s+you\s+must)[\s,.!]+)*", re.I)
"""Words that give in before an answer ("fine, 07700 900777")."""
_CODE_LEAD = re.compile(r"^(?:and\s+)?(?:(?:(?:my|the|our)\s+)?(?:[a-z]+\s+)?(?:number|no\.?|num|ref(?:erence)?|code|id)"
                        r"(?:'s|\s+is)?|it'?s|its|it\s+is)\s*:?\s+", re.I)
"""Words that lead a code after a yes ("number is", "it's", "my membership number's")."""
_TITLED = re.compile(r"\b(Mrs|Mr|Ms|Miss|Mx|Dr|Prof|Revd|Rev|Fr|Sir|Dame|Lady|Lord)\.?\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})")
_FILLER_LEAD = re.compile(r"^(?:(?:u+m+|u+h+|hmm+|lol|ok(?:ay)?|oh|ah|so|and|well|btw|dunno(?:\s+really)?|not\s+sure(?:"
                          r"\s+\w+)?(?:\s+yet)?(?:\s+tbh)?|never\s+actually\s+[^,.?!]*)[,.!\s]+)+", re.I)


_SUPERLATIVE_ASKED = re.compile(r"(?i)\b(?:\w+est|best|worst|most|least)\b")


def _asks_of_the_rows(text: str) -> bool:
    """A question of its own put while a row is asked: its first question sentence opens with a question word
    ("which ones are kept at the harbour?", "umm who's cheapest in Whitstable?"). Not "what have you got?" (every
    row, which chooses among them) and not "something with a big boot?" (a description of the row wanted)."""
    parts = sentences(_FILLER_LEAD.sub("", text.strip()))
    first = parts[0] if parts and is_question(parts[0]) else ""  # "the atlantic room sounds right. does it ...?"
    first = _FILLER_LEAD.sub("", first.strip())  # chooses first, then asks
    if not first or not content_stems(
            re.sub(r"(?i)\b(?:what|which|who|have|got|you|do|does|is|are|any|there|the|of|them|those|these|one|ones|"
                   r"offer|options?|choices?|available)\b", " ", first)) and not _SUPERLATIVE_ASKED.search(first):
        return False
    if not first.rstrip().endswith("?") and not re.match(r"(?i)(?:which|what|who|whose|whom)\b", first):
        return False  # "any time friday" answers when; a question for rows is asked as one
    return bool(_ASKS_FOR_ROWS.match(first))


_CHOSEN_BESIDE = re.compile(r"(?i)\b(?:what|how)\s+about\b|\bany\s+chance\b|\b(?:i'?ll|we'?ll|let'?s|i\s+will|we\s+will)\s+"
                            r"(?:book|have|take|go)\b|\bthat\s+one\b|\bif\s+possible\b|\bi\s+think\b|"
                            r"\bbook\s+(?:me|us|with|in)\b")
"""A row asked for by a question ("what about Helen?", "any chance of the Garden Theatre?") or chosen beside it ("who's
free this week? Helen if possible", "which one has the ghost? we'll have that one"): the row's search, as before."""


def _named_row(reader: "TurnReader", text: str) -> str | None:
    from .kb_rows.change import named_row  # late: the row rules import this module
    return named_row(reader, text)


_ASKS_FOR_ROWS = re.compile(r"(?i)(?:which|what|who|whose|whom|any(?:one|body|thing|where|\s+of)?|(?:is|are)\s+there|"
                            r"(?:do|does)\s+(?:you|u|anyone|any\s+of)\b(?!\s+(?:know|think|mind|need|want))|"
                            r"(?:have|got)\s+(?:you\s+)?(?:got\s+)?any)\b")
"""Questions whose answer is rows to choose among ("which ones are kept at the harbour?", "do you have any with a
run?"), not a yes or no or a figure about one thing ("will the pleats be ok?", "how much does it cost?")."""


_WHAT_IS_THERE = re.compile(r"\bwhat\b.*\b(?:got|have|offer|do|options?|choices?|available)\b|\b(?:options?|choices?)\b", re.I)
"""A question after what there is to choose from ("what have you got?", "what are the options?")."""
_AS_I_SAID = re.compile(r"(?:^|[\s,;-]+)(?:like|as)\s+(?:i|we)\s+(?:said|say|mentioned|told\s+you|wrote)(?:\s+(?:before|"
                        r"earlier|already))?(?=\s*[,.;!]?\s*$)|^\s*(?:like|as)\s+(?:i|we)\s+(?:said|mentioned|told\s+you)"
                        r"(?:\s+(?:before|earlier|already))?\s*[,:;-]\s*|"
                        r"(?<=\w)\s+(?:(?:once\s+)?(?-i:again)|(?:same\s+)?as\s+(?:before|last\s+time))(?=\s*[,.;!]?\s*$)", re.I)
"""A remark that the value was given before ("like I said", "Puffin again"), at its start or its end: no part of it."""
_JUST_ONE = re.compile(r"\W*(?:(?:ok|oh|no|um+|er+)[,.\s]+)?(?:just|only)\s+(?:her|him|the\s+one|one|herself|himself)"
                       r"(?:\s+(?:then|please|thanks|for\s+now))?\W*", re.I)
"""A count of one person said by pointing at them: "just her", "only him"."""
_DEFERRED = re.compile(r"\b(?:i'?ll|ill|i\s+will|i'?d|i\s+need\s+to|i\s+have\s+to|let\s+me)\s+(?:have\s+to\s+|need\s+to\s+|just\s+)?"
                       r"(?:come|get)\s+back\s+to\s+(?:you|u|ya)\b|\b(?:i'?ll|ill|i\s+will)\s+let\s+(?:you|u)\s+know\b", re.I)
"""A value the user will give later ("I'll have to come back to you on the address", "I'll let you know"): none now."""


_NO_NAME_WORDS = frozenset("""ouch cheers thanks thank ta thx oops whoops ugh urgh wow yay yikes hmm hm hmmm er erm um umm
ok okay sure fine great cool lovely perfect brilliant nice sweet super awesome grand right alright yes yeah yep yup no
nope nah hi hiya hello hey bye goodbye sorry pardon what eh huh oh ah aah damn dammit blimey crikey gosh jeez lol haha
cheers! please pls done nothing none dunno idk same""".split())
"""Words said in passing that are never a person's name on their own ("ouch.", "cheers")."""
_TAKES_IT = re.compile(r"^\W*(?:(?:ok(?:ay)?|right|great|lovely|perfect|cool|fine|brilliant|sounds\s+good)[,.!\s]+)*"
                       r"(?:let'?s\s+(?:do|go\s+(?:with|for)|book|get|have|take)|i'?ll\s+(?:take|have|go\s+(?:with|for))|"
                       r"we'?ll\s+(?:take|have|go\s+(?:with|for))|go\s+on\s+then|book\s+(?:it|that|me|us))\b", re.I)
"""A proposal taken in words rather than with a yes: "right let's do the Land Rover", "ok I'll take it"."""
_SORRY_FIRST = re.compile(r"^\W*(?:sorry|oops|whoops|apologies|my\s+bad)\s*[!.]+\s*", re.I)
"""An apology said as its own sentence before the answer: "sorry! Margaret Doyle. ..."."""
_AGREED_FIRST = re.compile(r"^\W*(?i:yes|yeah|yea|yep|yup|sure|of\s+course|ok(?:ay)?|right)(?:\s*(?:[,.!-]+|\s)\s*"
                           r"(?i:sure|of\s+course|no\s+problem|no\s+worries)\b)?(?:\s*[,.!-]+\s*|\s+(?=(?i:it'?s|its|it\s+is|"
                           r"that'?s|thats|it\s+was)\s+[A-Z0-9]))")
"""An agreement that starts an answer to a question that asks for a value: "yes it's KH-2093", "yeah sure, ..." (not
"yes it's a rescue", which describes rather than gives the value)."""
_DAY_GREETING = re.compile(r"^\W*(?:good\s+)?(?P<part>morning|afternoon|evening)(?:\s+(?:all|there|folks|guys|mate))?"
                           r"\s*[!,.]+\s*", re.I)


_POINTED_OBJECT = re.compile(r"\b(?:in|into|for|on|with|take|book|choose|get|add|do)\s+(?:me\s+)?"
                             r"(?:it|that\s+one|this\s+one)\b(?!\s*(?:is|was|'s|isn't|wasn't)\b)", re.I)
"""The thing in focus as the object of a request ("enroll me in it", "I'll take that one")."""


_NOT_THE_COUNT = re.compile(r"\b(?:minutes?|mins?|hours?|hrs?|days?|weeks?|ago|yesterday|check|give\s+me|"
                            r"hang\s+on|hold\s+on|sec|second|moment)\b", re.I)
"""Words beside a number that make it no answer to the field the summary lacks ("give me 10 minutes to check")."""


@dataclass
class Expect:
    """The question the agent asked last turn: Ask(record, field) or Confirm(record, field)."""

    act: str
    rec: TaskRecord
    field: Field


class OfflineParser:
    """Deterministic parser for everyday phrasing; see the module docstring for its rules."""

    name = "offline"

    def __init__(self) -> None:
        self.vocabulary = KBVocabulary()
        self._readings: tuple[Any, tuple[str, str], tuple[bool, bool, frozenset[str]]] | None = None  # spec, its settings, readings

    def _spec_readings(self, spec: Any) -> tuple[bool, bool, frozenset[str]]:
        """(`day_first(spec)`, `evening_hours(spec)`, `options_said_with_not(spec)`), worked out once per spec object and setting: they read the
        spec's texts, which is not a per-turn cost at a thousand worksheets."""
        settings = (spec.settings.date_order, spec.settings.bare_hours)
        cached = self._readings
        if cached is None or cached[0] is not spec or cached[1] != settings:
            cached = self._readings = (spec, settings, (day_first(spec), evening_hours(spec),
                                                         options_said_with_not(spec)))
        return cached[2]

    def parse(self, utterance: str, ctx: ParseContext) -> ParseResult:
        day_first_, evening, said_with_not = self._spec_readings(ctx.spec)
        tokens = DAY_FIRST.set(day_first_), EVENING.set(evening)  # 3/9/47 and "at 8" read the spec's way
        options_token = OPTIONS_SAID_WITH_NOT.set(said_with_not)  # "never ridden" names an option
        held = None
        try:
            reader = TurnReader(utterance, ctx, self.vocabulary)
            held = DATE_HELD.set(reader.date_held())
            try:
                reader.run()
            except GenieError as exc:
                reader.note("error", "", reason=str(exc))
                return ParseResult(text="\n".join(reader.lines), rules=reader.rules, error=str(exc))
            return ParseResult(text="\n".join(reader.lines), rules=reader.rules)
        finally:
            DAY_FIRST.reset(tokens[0])
            EVENING.reset(tokens[1])
            OPTIONS_SAID_WITH_NOT.reset(options_token)
            if held is not None:
                DATE_HELD.reset(held)


_CHANGE_LEAD = re.compile(r"^\W*(?:(?:so|ok(?:ay)?|then|just|please)[,\s]+)*(?:make\s+it|change\s+it\s+to|move\s+it\s+to|"
                          r"put\s+it\s+(?:on|to|down\s+for)|can\s+(?:it|we)\s+(?:be|do)|let'?s\s+(?:do|say|go\s+for))\b", re.I)
"""A sentence that asks for a change in so many words ("make it mon 17/2", "can it be the 20th then")."""


class TurnReader:
    """One utterance being read; collects statements and the rule entries that explain them."""

    def __init__(self, utterance: str, ctx: ParseContext, vocabulary: KBVocabulary | None = None) -> None:
        self.text, self.restored = restore_apostrophes(normalise(utterance))  # "id like", "dont" read as "i'd", "don't"
        self.ctx = ctx
        self.vocabulary = vocabulary or KBVocabulary()
        self.spec = ctx.spec
        self.state = ctx.state
        self.today = ctx.today
        self.text = as_stored(self.text, self.vocabulary, ctx.kb)  # "cs161" -> "CS 161" when the KB writes it so
        self.text = _SHORT_WORDS.sub(lambda m: _SHORT_WORD[m.group(0).lower()], self.text)  # "my appt is on tuesday"
        self.text = respelled(self.text, ctx.spec, kb_words(ctx.kb))[0]  # "cancle my lesson": the spec's or KB's word
        self.text = without_self_questions(self.text)  # "or small? no, go with medium": settled after the doubt
        self.text, taken = taken_back(self.text, ctx.today)  # "pin 7713, no wait, 7731": read as "pin 7731"
        self.view = StateView(ctx.spec, ctx.state)
        self.acts: list[dict[str, Any]] = list(ctx.state.last_acts or [])
        self.lines: list[str] = []
        self.rules: list[dict[str, Any]] = [{"rule": "value-taken-back", "matched": f"{was} -> {now}", "statement": None}
                                            for was, now in taken]
        self.yes_words = ""
        self.row_words = ""
        self.undecided = False  # the user said the row asked for is not chosen yet: a question then fills nothing
        self.answered = False
        self.kb_first = False  # a rule decided the turn's question is the KB's, whatever its words (`asked_task`)
        self._left = ""  # what no rule read, when nothing was (see `_by_parts`)
        self.introduced = False
        self.answers = AnswerReader(ctx.spec, self.view, ctx.today)
        self.answers.note = self.note
        self.value_for = self.answers.value_for
        self.enum_value = self.answers.enum_value
        self.strong_value = self.answers.strong_value
        self.expect = self._expectation()

    # ------------------------------------------------------------ output
    def emit(self, rule: str, matched: str, statement: str, **extra: Any) -> None:
        for restored, typed in self.restored:  # a value keeps the user's spelling ("I dont recognise it")
            statement = re.sub(rf"(?<![\w']){re.escape(restored)}(?![\w'])", typed, statement)
        if statement in self.lines:
            return
        self.lines.append(statement)
        self.rules.append({"rule": rule, "matched": matched, "statement": statement, **extra})

    def note(self, rule: str, matched: str, **extra: Any) -> None:
        self.rules.append({"rule": rule, "matched": matched, "statement": None, **extra})

    def assign(self, rule: str, matched: str, rec: TaskRecord, f: Field, value: Any, **extra: Any) -> None:
        value = _same_half_of_day(self.view.kind_of(f), rec.values.get(f.name), value, self.text)
        if isinstance(value, str) and value != REFUSAL and is_address_field(f) and self.view.kind_of(f) == "str":
            value = (new_postcode_in(rec.values.get(f.name), self.text) and new_postcode_in(rec.values.get(f.name), value)
                     or value)  # "ah no the postcode's wrong, it's
            # CF14 2LF": the address held, with the new postcode in place of its old one
            value = tidy_address(value) or value  # "17 Cedar Grove, it's" once the postcode went to its field
            if not re.search(r"\d", value) and not re.search(r"\s[A-Z]", value) and \
                    any(w in _CLAUSE_WORDS for w in re.findall(r"[a-z']+", value.lower())):
                self.note("not-an-address", matched, reason=f"'{value}' is a clause of a sentence, not an address")
                return  # "the caddy can wait" is no street
        if isinstance(value, str) and value != REFUSAL and self.view.kind_of(f) == "str":
            if shape(f) in ("name", "short", "code", "email") and not is_message_field(f):
                value = _AS_I_SAID.sub("", value).strip(" ,;-") or value  # "Joanne Fairley like I said": the name
            if shape(f) == "name" and (value.strip(" .!,?").lower() in _NO_NAME_WORDS or not_a_name(value)):
                self.note("not-a-name", matched, reason=f"'{value}' is a word said in passing, not a person's name")
                return  # "ouch.", "cheers" to "what name is it under?"
            if _DEFERRED.search(value):
                self.note("deferred", matched, reason="the user will give this later: no value now")
                return  # "ill have to come back to u on the address"
            if shape(f) == "text" and not is_message_field(f):  # "the open day got called off unfortunately", "... at the ceremony!": the words
                value = _PROSE_TAIL.sub("", value).strip() or value  # told, without the closing remark or "!"
        if isinstance(value, str) and value != REFUSAL and self.view.kind_of(f) == "str" and shape(f) == "name" \
                and ADDRESSEE.search(f"{f.name.replace('_', ' ')} {f.description}") and (titled := _TITLED.search(self.text)) \
                and titled.group(2) == value:
            value = titled.group(0)  # "Mrs Eileen Cartwright" for the flowers: an addressee's name keeps its title
        self.emit(rule, matched, f"{rec.var}.{f.name} = {literal(value)}", **extra)
        if self.view.kind_of(f) in ("str", "Enum", "bool", "int", "float"):
            self.view.pending.setdefault(rec.var, {})[f.name] = value

    # ------------------------------------------------------------ context
    def _expectation(self) -> Expect | None:
        for act in reversed(self.acts):
            if act.get("act") in ("ask", "confirm"):
                rec = self.state.get(act.get("var", ""))
                if isinstance(rec, TaskRecord):
                    f = self.view.worksheet(rec).field(act.get("field", ""))
                    missing = [m for m in act.get("missing") or [] if self.view.worksheet(rec).field(m) is not None]
                    lacking = self.view.worksheet(rec).field(missing[0]) if len(missing) == 1 else None
                    if f is not None and lacking is not None and self.view.kind_of(lacking) != "str" \
                            and yes_no(self.text) is None and not _NOT_THE_COUNT.search(self.text):
                        # a yes or a no still answers the summary; "give me 10 minutes", "2 days ago" give no value
                        # "I can't submit this without the hedge's length. You can give it now, or tell me to stop":
                        # that field is what the agent asks for (a declined code or name found later is read by
                        # `give_found_code`, which checks its shape)
                        return Expect("ask", rec, lacking)
                    if f is not None:  # "more": the agent asked "anything else?" of a list field
                        return Expect("more" if act.get("more") else act["act"], rec, f)
                return None
        return None

    def date_held(self) -> "dt.date | tuple[dt.date, str] | None":
        """The date a day of the month said alone is read near (`DATE_HELD`): the asked field's own date, else the
        latest date its record holds, in a field about what is to come (a birth date anchors nothing)."""
        if self.expect is None:
            return None
        rec, asked = self.expect.rec, self.expect.field
        held = []
        for f in self.view.worksheet(rec).fields:
            value = rec.values.get(f.name)
            if self.view.kind_of(f) != "date" or past_field(f) or not isinstance(value, str) \
                    or not re.fullmatch(r"\d{4}-\d\d-\d\d", value):
                continue
            if f.name == asked.name:
                return dt.date.fromisoformat(value)
            held.append(dt.date.fromisoformat(value))
        if not held:
            return None
        ends = _ENDS.search(f"{asked.name.replace('_', ' ')} {asked.description or ''}")
        return (max(held), "after") if ends else max(held)  # a return date said after the pickup comes after it

    def has_kb(self) -> bool:
        return self.ctx.kb is not None or bool(self.spec.kb_worksheets())

    def candidates(self, *, records: list[TaskRecord] | None = None, unfilled_only: bool = False,
                   exclude: Field | None = None) -> list[tuple[TaskRecord, Field]]:
        out = []
        for rec in records if records is not None else self.view.live_records():
            for f in self.view.input_fields(rec):
                if self.view.kind_of(f) in ("confirm", "task", "row", "list"):
                    continue
                if exclude is not None and f.name == exclude.name and rec.var == self.expect_var():
                    continue
                if unfilled_only and not self.view.unfilled(rec, f):
                    continue
                out.append((rec, f))
        return out

    def expect_var(self) -> str | None:
        return self.expect.rec.var if self.expect else None

    # ------------------------------------------------------------ the rules, in order
    def run(self) -> None:
        self._read()
        proper_name_in_opening(self, self.text)  # "it's a Gazelle e-bike": the make, in the record opened
        contacts_left(self, self.text)  # "ill collect it. Gary Firth gfirth62@hotmail.co.uk 07811 223344"
        given_name(self, self.text)  # "names Gareth Lloyd btw, mobile is 07723 456789": the name beside the rest
        self._answer_beside_name()  # "D8. name's Pete Harrow" to the berth asked: the name went to its field
        name_corrected(self, self.text)  # "sorry, put Samantha Lowe, that's what's on the account"
        name_under_me(self, self.text)  # "that'll be me, Anita Desai. and it's under my name": the booker's too
        carried_from_questions(self, self.text)  # "any A level chemistry tutors?" ... "can we book her?"
        same_deal(self, self.text)  # "and CS 221 as well, same deal": the options of the record before
        options_by_preposition(self, self.text)  # "a taxi to Gatwick": To the Airport
        when_in_opening(self, self.text)  # "my scores were sent in June": when, in the record opened
        place_in_opening(self, self.text)  # "I'm on the hard shoulder of the M5": where, in the record opened
        story_in_opening(self, self.text)  # "the oven won't heat, keeps showing E4": the trouble told
        flagged_story(self, self.text)  # the story an opening tells, for a field the spec marks free text
        schedule_pass(self, self.text)  # "tmrw 8am til fri": a start and an end, each in its own pair of fields
        hours_from_range(self, self.text)  # "2 til 5", "7pm, out by 11": the hours of a booking
        declined_optional(self, self.text)  # "07700 900118. no email thanks": the optional e-mail declined
        one_constructor(self)  # a record opened by two rules: one statement with the values of both
        head_count_change(self, self.text)  # "hmm actually 2 of them can't make it": the party, two fewer
        counts_left(self, self.text)  # "I'll try the Fogbank, 2 firkins": a count beside what a rule read
        if not self.lines and any(r["rule"] == "no-match" for r in self.rules):
            self._by_parts(self._left)  # "ok, not bad. Tom Ashworth": a remark hid the value from every rule
        self._no_refusal_beside_a_value()
        self._one_yes_or_no_per_field()
        self._confirm_last()
        if self.lines:  # a pass after the rules read what they did not: the turn was understood after all
            self.rules = [r for r in self.rules if r["rule"] != "no-match"]

    def _no_refusal_beside_a_value(self) -> None:
        """ "no I've never had one": one rule read the value (False), another a refusal ("NA") of the same field. The
        value stands; two statements that contradict each other would leave the field to the last one."""
        valued = {m.group(1) for line in self.lines if (m := re.match(r"([\w.]+) = (?!\"NA\"$)", line))}
        dropped = [r for r in self.rules if r.get("statement") and re.fullmatch(r"([\w.]+) = \"NA\"", r["statement"])
                   and r["statement"].split(" = ")[0] in valued]
        self._drop(dropped, "the same turn gives this field a value")

    def _one_yes_or_no_per_field(self) -> None:
        """ "I don't have a schedule conflict": the yes/no rule read "I don't" as the no, and a later rule read the
        rest ("have a schedule conflict") by meaning as a yes of the same field. A value read from the words
        themselves wins over one read by meaning; two values of one field in one turn would leave it to the last."""
        values: dict[str, set[str]] = {}
        for r in self.rules:
            if (m := re.fullmatch(r"([\w.]+) = (True|False)", r.get("statement") or "")) is not None:
                values.setdefault(m.group(1), set()).add(m.group(2))
        dropped = []
        for (var, name), meant in self.view.by_meaning.items():
            if len(values.get(f"{var}.{name}", ())) < 2:
                continue
            dropped += [r for r in self.rules if r.get("statement") == f"{var}.{name} = {meant}"]
        self._drop(dropped, "another rule of the same turn read this field's value from the words themselves")

    def _drop(self, dropped: list[dict[str, Any]], reason: str) -> None:
        """Take these rules' statements back (the trace keeps them as `dropped`, with the reason)."""
        for r in dropped:
            r["dropped"], r["statement"] = r["statement"], None
            r["reason"] = reason
        if dropped:
            self.lines = [r["statement"] for r in self.rules if r.get("statement")]

    def _confirm_last(self) -> None:
        """ "Yes, and tell them it's urgent": the note goes in before the yes, so what is confirmed includes it."""
        confirming = {"confirm-yes", "answer-yes-no"}
        late = [i for i, r in enumerate(self.rules) if r.get("statement") and r["rule"] in confirming
                and (r["statement"].startswith("confirm(") or r.get("confirm_field"))]
        if not late or len(self.lines) < 2:
            return
        moved = [self.rules[i] for i in late]
        self.rules = [r for i, r in enumerate(self.rules) if i not in late] + moved
        self.lines = [r["statement"] for r in self.rules if r.get("statement")]

    def _read(self) -> None:
        text = self.text
        if not text:
            self.note("empty", "")
            return
        if control_rule(self, text):
            return
        rest = self._proposal(text)
        rest = self._yes_no(rest) if rest is not None else None
        if rest is None or not rest.strip(" ,.!?;"):
            return
        if go_ahead_after_no(self, rest):
            return
        rest = introduction(self, rest)
        rest = self._without_greeting(rest)
        rest = self._without_agreement(rest)
        if not rest.strip(" ,.!?;"):
            return
        if self.answered and (chit_chat(rest, after_answer=True) or closing(rest)):
            self.note("chit-chat", rest)
            return
        for rule in (self._small_talk, self._story_told_again, self._reference, self._switch, self._choose, self._lists, self._withdrawn, self._found_later, self._correction, self._refusal,
                     self._same_as, self._refine, self._change, self._row_change, self._special_request, self._item_request,
                     self._labelled_turn, self._typed_answer, self._opening, self._new_task, self._next_task, self._semantic_task, self._row_request,
                     self._answer_and_question, self._for_that, self._question,
                     self._describe, self._unasked, self._problem, self._str_answer, self._other_fields,
                     self._unopened, self._catch_all, self._by_values, self._search):
            if rule(rest):
                if self.answered and rule != self._correction:
                    clause_correction(self, rest, after_answer=True)  # "x@y.com. oh and it's 3 bags not 2"
                if rule == self._same_as:
                    self._answer_beside_same(rest)  # "Hannah Reeve, same number as before"
                if rule in (self._change, self._correction, self._refusal, self._found_later) and self._asked_unread():
                    self._answer_before_change(rest)  # "WA14 2DT. could they come this thursday instead?", "Marcus
                    # Lee. student number i dont know off the top of my head"
                if rule == self._refusal and not self._asked_unread():
                    self._labelled_after(rest)  # "uhh I've lost the receipt. surname's O'Donnell if that helps"
                return
        if not self.lines and self._changed_at_the_end(rest):
            return
        if not self.lines and not self.rules and semantic_control(self, rest):
            return
        if not self.lines and not self.rules and task_already_open(self, rest):
            return
        if not self.lines and not any(r["rule"].endswith("-uncertain") for r in self.rules):
            if waiting(rest):  # "hang on a sec, let me find it": nothing to read, and nothing misunderstood
                self.note("no-match", rest, reason="the user goes to look for the answer; the agent waits",
                          say="No problem, take your time.")
                return
            self._left = rest
            self.note("no-match", rest, reason="nothing in the turn was understood; the agent says so")

    def _labelled_after(self, text: str) -> None:
        """A later sentence of a refusal that gives another field's value by its label ("I've lost the receipt.
        surname's O'Donnell if that helps"): that field, when the label names exactly one open field."""
        from .parts.labelled_turn import _candidates, _labelled  # late: parts import this module
        from .words.values import free_text as said_plainly
        for part in sentences(text)[1:]:
            part = re.sub(r"^(\w+)'s\s+", r"\1 is ", said_plainly(part).strip(" .!"))
            found = _labelled(self, part, _candidates(self), [])
            if found is not None and not any(line.startswith(f"{found[0].var}.{found[1].name} = ") for line in self.lines):
                self.assign("labelled-value", part, *found[:3], reason="a value given by its label after the refusal")

    def _changed_at_the_end(self, text: str) -> bool:
        """ "hmm actually she's away saturday. make it mon 17/2", "make it 75, it's for two of them": no rule read the
        turn, one clause of which asks for a change in so many words; the others tell why (and may name the old
        value or other numbers), so that clause is read alone, as a correction or a change."""
        parts = [c.strip() for p in sentences(text) for c in re.split(r"\s*[,;]\s*", p) if c.strip(" ,.!?")]
        led = [p for p in parts if _CHANGE_LEAD.match(p) and not is_question(p.rstrip("?"))]
        if len(parts) < 2 or len(led) != 1:
            return False
        rules = len(self.rules)
        if self._correction(led[0]) or self._change(led[0]):
            self.rules = [r for i, r in enumerate(self.rules) if i >= rules or r["rule"] != "no-match"]
            return bool(self.lines)
        return False

    def _by_parts(self, text: str) -> bool:
        """Nothing read the whole turn: its sentences and clauses one by one, the last first, as the answer to the
        question asked ("ok, not bad. Tom Ashworth", "ok he's just texted, it's FG14 WRT"), then as values for other
        fields ("just the one. reg RV15 GHT"). A remark around a value hid it from the rules that read whole turns."""
        e = self.expect
        if e is None or e.act != "ask" or e.field.type.startswith("List[") or self.view.kind_of(e.field) == "list":
            return False  # a list's answer is read whole: a piece read alone would cut the list short
        parts = [p.strip() for p in self._parts(text) if p.strip(" ,.!?;")]
        if len(parts) < 2:
            return False
        for part in reversed(parts):
            if is_question(part) or chit_chat(part) or closing(part) or len(part.split()) > 8 \
                    or not set(re.findall(r"[a-z0-9']+", part.lower())) - _REMARK_WORDS \
                    or (_ABOUT_SELF.match(part) and not re.search(r"\d", part)):
                continue  # "I'm driving", "he's just texted": a sentence about someone, no value without a code
            if not self.answered:
                before = len(self.lines)
                if (self._typed_answer(part) or self._str_answer(part)) and len(self.lines) > before:
                    self.answered = True
                    continue
            self._other_fields(part)
        if self.lines:
            self.note("by-parts", text, reason="the turn read clause by clause: a remark hid its values")
        return bool(self.lines)

    def _answer_beside_name(self) -> None:
        """The turn gave a person's name for another field (`given_name`) and nothing else was read: the few words
        left without the name and its cue answer the question asked ("D8. name's Pete Harrow" to the berth
        number). Only a short answer of one to three words, read as the field's own type."""
        given = [r for r in self.rules if r.get("statement") and r.get("how") == "a person's name given beside other values"]
        if len(given) != 1 or len(self.lines) != 1 or not self._asked_unread() or self.answered:
            return
        e, name = self.expect, given[0]["matched"]
        kind = self.view.kind_of(e.field)
        if kind not in ("str", "int", "float") or (kind == "str" and shape(e.field) not in ("code", "short")):
            return
        cue = re.compile(rf"(?:\b(?:my\s+|the\s+|and\s+)?name(?:'?s|\s+is|\s*:)?\s*|\b(?:it'?s|i'?m|this\s+is)\s+|"
                         rf"\b(?:booked\s+|it'?s\s+)?under\s+)?{re.escape(name)}", re.I)
        rest = cue.sub(" ", self.text, count=1).strip(" ,.;:!-")
        if not rest or rest == self.text.strip(" ,.;:!-") or len(re.findall(r"[\w'-]+", rest)) > 3 \
                or not re.search(r"\d", rest):
            return  # "hiya. name's Tom Hale": a greeting is no code; an answer left beside the name has a digit
        before = len(self.lines)
        if (self._typed_answer(rest) or self._str_answer(rest)) and len(self.lines) > before:
            self.rules = [r for r in self.rules if r["rule"] != "no-match"]

    def _asked_unread(self) -> bool:
        """The field asked has no statement from this turn yet."""
        e = self.expect
        return e is not None and e.act == "ask" and not any(
            line.startswith(f"{e.rec.var}.{e.field.name} = ") for line in self.lines)

    def _answer_before_change(self, text: str) -> None:
        """A first sentence that answers the question asked, before a sentence that changes a value held: the
        change was read, and the answer is read from its own sentence alone (only when none of the change's words
        are in it)."""
        e = self.expect
        if e is None or e.act != "ask" or not (self.view.unfilled(e.rec, e.field) or self.view.kind_of(e.field) == "row") \
                or self.view.kind_of(e.field) in ("list", "confirm", "bool") or e.field.type.startswith("List["):
            return  # (a row field holding the rows a search found is still to be chosen: "great, we'll take B6.")
        first = re.split(r"(?<=[.!?;])\s+", text.strip(), maxsplit=1)
        if len(first) != 2 or len(first[0].split()) > 6 or is_question(first[0]) or chit_chat(first[0]):
            return
        if not re.search(r"\d|@", first[0]) and len(re.findall(r"\b[A-Z][a-z'-]+", first[0])) < 2:
            return  # "Good question.", "Oh dear.", "Fair enough.": a remark, not the value asked
        if any(str(r.get("matched", "")).strip() and str(r.get("matched")).strip() in first[0]
               for r in self.rules if r.get("statement")):
            return
        self._read_as_answer(first[0])

    def _read_as_answer(self, text: str) -> None:
        """Read `text` as the answer to the question asked, though another rule of the turn already answered: that
        rule's words went to another field, so the field asked is still to be read."""
        before, was = len(self.lines), self.answered
        self.answered = False
        if (self._typed_answer(text) or self._str_answer(text)) and len(self.lines) > before:
            self.answered = True
        self.answered = self.answered or was

    def _answer_beside_same(self, text: str) -> None:
        """The rest of a turn beside a "same <field> as before": the answer to the question asked when another field
        was copied ("Hannah Reeve, same number as before"), else values of the record's other fields."""
        found = same_as(text)
        if found is None:
            return
        rest = re.sub(re.escape(found[0]), " ", text, count=1, flags=re.I).strip(" ,.!?;")
        rest = re.sub(r"\s+(?:again|too|as\s+well)$", "", rest, flags=re.I)  # "Tasha Green again"
        e = self.expect
        if not rest or is_question(rest) or e is None or e.act != "ask" or len(sentences(text)) > 1:
            return  # "same number as before. she's called Biscuit": another sentence, read by the other rules
        if not self._asked_unread():  # "same name as before, postcode is MK5 6HT": the name copied, the postcode
            self._extras(rest, e.rec)
            return
        self._read_as_answer(rest)

    def _parts(self, text: str) -> list[str]:
        """Sentences, and clauses cut at a comma with two words or more on each side and no date across it
        ("September 12th, 1975" stays one part)."""
        dates = find_dates(text, self.today)
        out = []
        for sentence in re.split(r"(?<=[.!?;])\s+", text):
            pieces = [sentence]
            for m in reversed(list(re.finditer(r",\s+", sentence))):
                left, right = sentence[:m.start()], pieces[0][m.end():] if pieces else ""
                at = text.find(sentence) + m.start()
                if len(left.split()) >= 2 and len(right.split()) >= 2 and not any(d.start <= at < d.end for d in dates):
                    pieces = [left] + [right] + pieces[1:]
                    sentence = left
            out += pieces
        return out

    def _without_greeting(self, text: str) -> str:
        """ "morning! lovely weather for it eh": a greeting by the part of the day, ended by its own punctuation, is
        small talk, not an option ("Morning" callbacks). Only before a task is chosen: to a question asked it is the
        answer's first word ("morning, ideally before 10")."""
        m = _DAY_GREETING.match(text)
        e = self.expect
        if m is None or not text[m.end():].strip(" ,.!?;"):
            return text
        if e is not None and e.act == "ask" and not self.task_choice(e):
            return text  # "morning, ideally before 10" to a question asked: the answer, not a greeting
        self.note("chit-chat", m.group(0).strip(), reason="a greeting by the part of the day")
        return text[m.end():]

    def _without_agreement(self, text: str) -> str:
        """ "yes it's REID9801157CJ9XY", "yeah sure, 14 Elm Road" to a question that asks for a value (not a yes or
        no): the agreement before the answer is no part of it. A bare yes stays a bare yes."""
        e = self.expect
        if e is None or e.act != "ask" or self.answered or self.view.kind_of(e.field) in ("bool", "confirm"):
            return text
        m = _AGREED_FIRST.match(text) or _SORRY_FIRST.match(text)
        if m is None or not text[m.end():].strip(" ,.!?;"):
            return text
        self.note("chit-chat", m.group(0).strip(), reason="an agreement before the value asked for")
        return text[m.end():]

    def _proposal(self, text: str) -> str | None:
        proposals = [a for a in self.acts if a.get("act") == "propose"]
        yn = yes_no(text) if proposals else None
        if proposals and yn is None and not is_question(text) and _TAKES_IT.match(text) and not negations(text):
            accept_proposal(self, proposals[-1], text)  # "right let's do the Land Rover, for 10 days": a yes in words
            self.answered = True
            return ""
        if proposals and yn is None and self._answers_proposal(proposals[-1], text):
            accept_proposal(self, proposals[-1], text)  # "four": a value for the proposed task accepts it
            self.answered = True
            return ""
        if not proposals or yn is None:
            return text
        value, words, rest = yn
        if value:
            self.yes_words = words
            accept_proposal(self, proposals[-1], rest)
        else:
            self.note("proposal-declined", words)
        self.answered = True
        return rest

    def _answers_proposal(self, act: dict[str, Any], text: str) -> bool:
        """The whole turn is values for fields of the proposed worksheet (none of them a question)."""
        ws = self.spec.worksheet(act.get("worksheet", ""))
        if ws is None or is_question(text) or len(text.split()) > 8:
            return False
        ghost = TaskRecord(var="_", worksheet=ws.name)
        fields = [(ghost, f) for f in ws.fields if f.kind == "input" and f.name not in (act.get("values") or {})
                  and self.view.kind_of(f) not in ("confirm", "task", "row", "list", "str")]
        mentions = find_mentions(text, fields, self.view, self.today)
        if mentions:
            return not _leftover(text, mentions)
        ints = [f for _r, f in fields if self.view.kind_of(f) == "int"]
        number = find_numbers(text)
        return len(ints) == 1 and len(number) == 1 and not Bag.of(text[:number[0].start] + text[number[0].end:]).stems

    def _yes_no(self, text: str) -> str | None:
        e = self.expect
        if e is None and not self.answered and self._held_summary_done(text):
            return ""
        if e is None or self.answered:
            return text
        kind = self.view.kind_of(e.field)
        if e.act not in ("confirm", "more") and kind not in ("bool", "confirm"):
            return text
        single = text.strip(" .!").lower()
        yn = yes_no(text) or ((single == "y", text, "") if single in ("y", "n") else None) or \
            ((False, text, "") if e.act == "more" and closing(text) else None) or \
            ((True, text, "") if (e.act == "confirm" or kind == "confirm") and
             (_DO_IT.match(text) or (_LOOKS_RIGHT.search(text) and not negations(text) and not self.would_change(text)))
             else None) or \
            ((False, held.group(0), text[held.end():]) if (e.act == "confirm" or kind == "confirm")
             and (held := _NOT_YET.search(text)) else None) or \
            ((False, held.group(0), "") if (e.act == "confirm" or kind == "confirm")
             and (held := HOLD_BACK.search(text)) else None) or \
            ((False, held.group(0), text[held.end():]) if kind == "bool" and e.act == "ask"
             and (held := _NOT_DONE.match(text)) and refusal(text) is None and not _UNDECIDED.search(text)
             and not _YET_MEANS_YES.search(f"{e.field.name.replace('_', ' ')} {e.field.description}") else None) or \
            ((False, text, "") if kind == "bool" and e.act == "ask" and enough_said(e.field, text) else None) or \
            ((flag, text, "") if kind == "bool" and e.act == "ask" and (flag := flag_named(e.field, text)) is not None
             else None) or \
            ((flag, text, "") if kind == "bool" and e.act == "ask" and (flag := echoed_flag(e.field, text)) is not None
             else None) or \
            (pro_form_flag(text) if kind == "bool" and e.act == "ask" else None) or \
            ((flag, text, "") if kind == "bool" and e.act == "ask" and (flag := age_flag(e.field, text)) is not None
             else None) or \
            ((flag, text, "") if kind == "bool" and e.act == "ask" and (flag := along_flag(e.field, text)) is not None
             else None) or \
            ((flag, text, "") if kind == "bool" and e.act == "ask" and (flag := kind_named(
                e.field, text, self.view.index())) is not None else None)
        # "not heated", "heated please": the yes/no field's own word, negated or not; "it was out"; "I'll be coming
        # with him" to "will a carer travel with the patient?"; "2 dogs" to "any pets or young children?"
        if yn is None and (e.act == "confirm" or kind == "confirm") and right_now(text):
            yn = (True, text, "")  # "good now", "ok now yes": the summary put right is agreed
        if yn is None and (e.act == "confirm" or kind == "confirm") and _GOOD_TO_GO.match(text):
            yn = (True, text, "")  # "ok good to go": the whole turn agrees ("good to go? hmm", "... once my wife
            # confirms" do not)
        if yn is None and (e.act == "confirm" or kind == "confirm") and self._agreed_last(text):
            yn = (True, text, "")  # "ok thanks, thats all fine. yes book it": thanks first, the yes last
        if yn is None and kind in ("bool", "confirm"):
            yn = _settled_yes_no(text, clauses=kind == "bool" and e.act == "ask" and not self.would_change(text))
            # "think so, somewhere in my handbag... yes": the bare yes said last
        if yn is None:
            return text
        value, words, rest = yn
        # "no actually, don't book it yet": the rest holds the summary back; its "actually" changes no value
        held_back = not value and bool(_NOT_YET.search(rest) or HOLD_BACK.search(text)) and not self.would_change(rest)
        if e.act == "more":  # "anything else?": no ends the list; yes opens one more item to fill
            item = parse_type(e.field.type).worksheet
            if not value:
                self.emit("list-done", words, f"confirm({e.rec.var}.{e.field.name})")
            elif item and self.spec.worksheet(item) and self.spec.worksheet(item).kind == "task":
                self.emit("list-more", words, f"{e.rec.var}.{e.field.name}.append({item}())")
        elif e.act == "confirm":
            if value:
                self.emit("confirm-yes", words, f"confirm({e.rec.var}.{e.field.name})")
            elif held_back or (not change_marker(rest) and not self.would_change(rest)):
                self.emit("confirm-no", words, f"{e.rec.var}.{e.field.name} = None")
            else:
                self.note("confirm-no", words, reason="the rest of the turn gives a new value")
        elif kind == "confirm" and not value and not held_back and (change_marker(rest) or self.would_change(rest)
                                                                    or told_again(self, rest) is not None
                                                                    or found_later(self, rest) is not None):
            self.note("confirm-no", words, reason="the rest of the turn gives a new value; the summary is shown again")
        elif kind == "confirm":
            self.assign("answer-yes-no", words, e.rec, e.field, value, confirm_field=True)
        else:
            if value and negates_field(field_stems(e.field, with_description=False), rest):
                value, words = False, text  # "ok. no packing, thanks": the ok acknowledges, "no packing" answers
            self.assign("answer-yes-no", words, e.rec, e.field, value)
            rest = second_flag(self, e.rec, e.field, rest)  # "yes it has one, and no, it doesn't clash"
            rest = self._code_after_yes(e.rec, rest) if value else rest
            if value and gated_record(self, e.rec, e.field, rest if rest.strip() else text) == "":
                rest = ""  # "I'd like to come with her, I'm her daughter, Karen Ellison": the whole turn was the yes
        self.answered = True
        return rest

    def _code_after_yes(self, rec: TaskRecord, rest: str) -> str:
        """ "yep, HSC-30417" to "are you a member?": the code after the yes is the one code field the yes opens (its
        predicate holds once the yes is in); the rest of the turn is read as before when it is anything else. So are
        the words to write after a yes to "a card with a message?" ("yeah, 'Welcome to the world little Theo!'")."""
        texts = [(f, words) for f in self.view.input_fields(rec) if self.view.kind_of(f) == "str"
                 and self.view.unfilled(rec, f) and (words := said_words(f, rest)) is not None]
        if len(texts) == 1:
            self.assign("words-after-yes", rest, rec, texts[0][0], texts[0][1],
                        reason="the words to write, after the yes that asks for them")
            return ""
        token = _CODE_LEAD.sub("", rest.strip(" ,.!;:-")).strip(" ,.!;:-")  # "I am yes, number is WPC-4471"
        if not re.fullmatch(r"(?=[\w-]*\d)[A-Za-z0-9]+(?:[-/ ][A-Za-z0-9]+){0,2}", token) or len(re.sub(r"\D", "", token)) < 4:
            return rest
        fields = [f for f in self.view.input_fields(rec) if self.view.kind_of(f) == "str" and self.view.unfilled(rec, f)
                  and not is_phone_field(f) and (shape(f) == "code" or shaped_reference(f, token))]
        if len(fields) > 1:  # the one whose example the token is shaped like ("like HSC-10482")
            fields = [f for f in fields if shaped_reference(f, token)]
        value = self.value_for(fields[0], token) if len(fields) == 1 else None
        if not isinstance(value, str) or re.sub(r"\W", "", value).lower() != re.sub(r"\W", "", token).lower():
            return rest
        self.assign("code-after-yes", token, rec, fields[0], value, reason="the code the yes goes on to give")
        return ""

    def _held_summary_done(self, text: str) -> bool:
        """ "ok fine, submit it anyway" with no question asked, after the user held the summary back ("hmm no hold
        off" set the confirmation to no): a yes to that confirmation, when exactly one live record holds a no."""
        if not _DO_IT.match(text) or negations(text):
            return False
        held = [(rec, f) for rec in self.view.live_records() for f in self.view.input_fields(rec)
                if self.view.kind_of(f) == "confirm" and rec.values.get(f.name) is False]
        if len(held) != 1:
            return False
        rec, f = held[0]
        self.assign("confirm-yes", text, rec, f, True, confirm_field=True, reason="the summary held back is now agreed")
        self.answered = True
        return True

    def _agreed_last(self, text: str) -> bool:
        """A summary agreed to in the last of several sentences, the ones before it thanks or agreement too
        ("ok thanks, thats all fine. yes book it"); nothing in the turn negates or changes a value."""
        parts = sentences(text)
        if negations(text) or is_question(text) or self.would_change(text):
            return False
        if len(parts) == 1 and _THATS_IT.match(parts[0]):
            return True  # "thats it yes", "that's everything, ta": nothing more to change, so the summary stands
        clauses = [c for c in re.split(r"\s*[,;]\s*|\s+-+\s+", parts[-1]) if c.strip(" .!")] if parts else []
        if len(clauses) > 1 and _DO_IT.match(clauses[-1]):
            return True  # "ok he's happy, go ahead": news that changes nothing, then the word to do it
        def agrees(part: str) -> bool:
            yn = yes_no(part)
            return bool(yn and yn[0] and not yn[2].strip(" ,.!")) or bool(_DO_IT.match(part) or _LOOKS_RIGHT.search(part))
        if len(clauses) > 1 and agrees(clauses[-1]) and all(closing(c) or chit_chat(c) for c in clauses[:-1]):
            return True  # "thats it now, yes": the user is done changing things, then the yes
        if len(parts) < 2:
            return False
        return agrees(parts[-1]) and all(agrees(p) or chit_chat(p) or closing(p) for p in parts[:-1])

    def would_change(self, text: str) -> bool:
        return bool(find_mentions(text, self.candidates(), self.view, self.today))

    def _small_talk(self, text: str) -> bool:
        yn = yes_no(text) if self.expect is None else None
        e = self.expect
        if e is not None and e.act == "ask" and self._declinable(e.field) \
                and self._declines_optional(e.field, text):
            return False  # "no thanks" to an optional question declines it (read as a refusal below)
        if e is not None and e.act == "ask" and not self.task_choice(e) and _DAY_PART_ALONE.fullmatch(text):
            return False  # "morning" to "when should we call?": the answer, however much it looks like a greeting
        if chit_chat(text) or (yn is not None and (not yn[2] or chit_chat(yn[2]) or closing(yn[2]))):
            if _FAREWELL.search(text) and self._nothing_in_progress():
                # "ok thanks, bye" with no task under way: a goodbye, not the menu again
                self.note("chit-chat", text, reason="a goodbye with no task under way",
                          reply="You're welcome. Goodbye!" if _THANKS.search(text) else "Goodbye!")
                return True
            self.note("chit-chat", text)  # "no thanks, that's all" when nothing was asked
            return True
        if plea(text):
            self.note("chit-chat", text, reason="a request for help: the agent's next question is the help")
            return True
        if self._nothing_in_progress() and not self._task_under_way() and not _QUESTION_WORD.search(text) \
                and leaves_task(text, lambda clause: plan_elsewhere(self, clause)):
            self.note("chit-chat", text, reason="the user will come back later and nothing is under way")
            return True  # "cool cheers, gonna talk to my partner and come back" after questions only: no task opened
        return False

    def _task_under_way(self) -> bool:
        """A task other than the start worksheet's choice is open."""
        start = self.spec.start_worksheet()
        return any(r.status == "active" and (start is None or r.worksheet != start.name)
                   for r in self.state.tasks())

    def _nothing_in_progress(self) -> bool:
        """The agent's last question was the start worksheet's (what to do next), or there was none."""
        start = self.spec.start_worksheet()
        return self.expect is None or (start is not None and self.expect.rec.worksheet == start.name)

    def _switch(self, text: str) -> bool:
        return switch_task(self, text)

    def _withdrawn(self, text: str) -> bool:
        return item_withdrawn(self, text)  # "actually scrap the third, two is plenty": the flag that opened it, False

    def _for_that(self, text: str) -> bool:
        return task_for_that(self, text)  # "ok, can you open a ticket for that": the task of the question asked

    def _reference(self, text: str) -> bool:
        return task_by_reference(self, text)

    def _semantic_task(self, text: str) -> bool:
        """A task in the user's own words (after the lexical readings, before questions and searches)."""
        e = self.expect
        if e is not None and (e.act != "ask" or self.view.kind_of(e.field) in ("str", "row")):
            return False
        if any(r["rule"] == "enum-uncertain" for r in self.rules):
            return False  # the answer to the asked option was unclear: no other reading guesses it
        if e is None and told_done_task(self, text):
            return True  # "any news on my bag?? I reported it missing yesterday": not the report, its status
        parts = sentences(text)
        if (e is None or self.task_choice(e)) and is_question(text) and _TAKING_REQUEST.match(text) \
                and not _OWN_BOOKING.search(text) and task_by_values(self, text, request=True):
            return True  # "can i grab the boardroom tmrw from 10ish for 2 hrs?": a task asked for by its values
        if (e is None or self.task_choice(e)) and is_question(text) and self._gives_a_slot(text):
            # "is there a table for 2 at 7pm tomorrow?", "do you have a room for 60 on the 14th?": a question that
            # gives how many and when asks for the booking, read as a request is (0.375), not as a KB question
            if semantic_task(self, text, threshold=REQUEST_TASK_THRESHOLD, margin=REQUEST_TASK_MARGIN):
                return True
        if self.has_kb() and _HYPOTHETICAL.match(text) and is_question(parts[-1]) and not _WANTS.search(text):
            self.kb_first = True
            return False  # "if I take a leave of absence next quarter do I get my tuition back?": what would happen,
            # asked of the KB; the task it mentions is not requested
        if e is None and len(parts) > 1 and self.has_kb() and not _WANTS.search(text) and \
                any(_WHAT_YOU_HAVE.search(p) and not _OWN_THING.search(p) for p in parts if is_question(p)):
            return False  # "we're moving into a flat ... Do you have movers used to older people?": a story and a
            # question, no request: the question is answered first (the agent may then offer the task)
        if e is None and self.has_kb() and _WHAT_YOU_DO.match(text) and not _WANTS.search(text) \
                and not _OWN_THING.search(text):
            return False  # "hi do u fix electric bikes": what the business does, asked of the KB, not a booking
        if self.has_kb() and len(parts) > 1 and any(_HOW_IT_GOES.search(p) for p in parts[1:]) \
                and is_question(parts[0]) and not _WANTS.search(text) \
                and not any(task_request(p) or asks_to(p, task_verbs(self.spec)) for p in parts):
            self.kb_first = True
            return False  # "can I take sailing lessons in the winter? what's the process?": how it goes,
            # asked of the KB; the task it names is not requested (the user may ask for it next)
        if self.has_kb() and is_question(text) and _ABOUT_IT.match(text) and not task_request(text) and any(
                a.get("act") == "report" and a.get("kind") == "kb" for a in self.acts):
            self.kb_first = True
            return False  # "does it come with a nord" after a room was shown: a question about it, for the KB
        if _WH_QUESTION.match(text) and not task_request(text):
            # "how do I reset my password?" is a question for the KB, read below; "where is my package?" asks
            # about the user's own thing and may name a task outright (a developer's example, nearly verbatim)
            return _OWN_THING.search(text) is not None and not _HOW_TO.match(text) and \
                semantic_task(self, text, threshold=WH_TASK_THRESHOLD, margin=WH_TASK_MARGIN)
        if self.has_kb() and is_question(parts[-1]) and _ASKS_WHAT_THERE_IS.search(parts[-1]) \
                and not _WANTS.search(text):
            verbs = task_verbs(self.spec)
            if not any(task_request(p) or asks_to(p, verbs) for p in parts):
                # "can I bring my dog on any of your boats?", "do u do paddle boards": a question about what the
                # business has is answered from the KB; it opens a task only when it says one nearly verbatim
                return semantic_task(self, text, threshold=WH_TASK_THRESHOLD, margin=WH_TASK_MARGIN)
        return semantic_task(self, text) or (e is None and (owned_option(self, text) or option_words_task(
            self, text, request=asks_to(text, task_verbs(self.spec)))))

    def _gives_a_slot(self, text: str) -> bool:
        """The turn gives a number (of people, of things) and a day or a time, as a booking's slot does."""
        when = find_dates(text, self.today) + find_times(text)
        counts = [n for n in find_numbers(text) if not any(n.overlaps(w) for w in when)]
        return bool(when) and bool(counts)

    def _row_request(self, text: str) -> bool:
        return row_request(self, text)

    def _item_request(self, text: str) -> bool:
        return item_request(self, text)

    def _refine(self, text: str) -> bool:
        return refine_search(self, text) or follow_up_search(self, text)  # "no Thai", "what about under 50 then"

    def _search(self, text: str) -> bool:
        """Nothing else read the turn, but it names values of the KB ("Italian food in San Francisco"): a search."""
        if self.ctx.kb is None or self.lines:
            return False
        terms = self.vocabulary.found_in(text, self.ctx.kb)
        query = search_phrase(text) if terms else ""
        if not query:
            return False
        self.emit("search", ", ".join(sorted(terms)), f"answer({literal(query)})")
        return True

    def _labelled_turn(self, text: str) -> bool:
        return labelled_turn(self, text)

    def _by_values(self, text: str) -> bool:
        return task_by_values(self, text)

    def _catch_all(self, text: str) -> bool:
        """An answer that names none of the options, to a question with an "Other(s)" option: that option, and
        the words go to the record's description field ("I just need to know how to do it")."""
        e = self.expect
        yn = yes_no(text)
        if yn is not None and not yn[0] and yn[2].strip(" .!,"):
            text = yn[2]  # "sorry no, it's a guitar case": the no is to the options offered, the rest says what
        elif yn is not None:
            return False
        if e is None or e.act != "ask" or self.answered or self.view.kind_of(e.field) != "Enum" \
                or len(text.split()) < 3 or is_question(text):
            return False
        other = next((v for v in e.field.enum_names if stem(v.split()[0]) in ("other", "els")), None)
        if other is None:
            return False
        self.assign("catch-all", text, e.rec, e.field, other)
        for f in self.view.input_fields(e.rec):
            if self.view.kind_of(f) == "str" and shape(f) == "text" and self.view.unfilled(e.rec, f):
                self.assign("catch-all", text, e.rec, f, text.strip())
                break
        self.answered = True
        return True

    def _story_told_again(self, text: str) -> bool:
        return story_told_again(self, text)  # "it was the harbour launch I was waiting for, not the ferry"

    def _new_task(self, text: str) -> bool:
        return new_task(self, text)

    def _next_task(self, text: str) -> bool:
        return next_task(self, text)  # "now I'd like to dispute a fee" once the fault report went through

    def _other_fields(self, text: str) -> bool:
        before = len(self.rules)
        if not other_fields(self, text):
            return False
        e = self.expect
        if e is not None and e.act == "ask" and not self.answered and self.view.kind_of(e.field) in ("int", "float", "date",
                                                                                                       "time", "Enum"):
            said = [r.get("matched") or "" for r in self.rules[before:]]
            rest = text
            for words in said:  # "just the one. reg RV15 GHT": the reg went to its field; "just the one" answers
                for piece in words.split(" ... "):  # "memb ... 44120": the label and the value, said apart
                    rest = rest.replace(piece, " ") if piece and piece in rest else rest
            rest = re.sub(r"(?i)\b(?:no\.?|num|number|is)\s*(?=[\s,.;]*$)", " ", rest)
            if rest.strip(" ,.!?;") and rest.strip() != text.strip():
                self._typed_answer(re.sub(r"\s+", " ", rest).strip(" ,;"))
        return True

    def _unopened(self, text: str) -> bool:
        return unopened_fields(self, text)

    def _choose(self, text: str) -> bool:
        return choose_row(self, text)

    def _lists(self, text: str) -> bool:
        return membership_rule(self, text) or spread_rule(self, text)

    def _found_later(self, text: str) -> bool:
        return give_found_code(self, text)

    def _correction(self, text: str) -> bool:
        before = len(self.rules)
        if not (correction_rule(self, text) or shaped_correction(self, text)):
            return False
        answer_after_correction(self, text, self.rules[before:])  # "sorry, Joanna Baker, ... number is 07700 900123"
        return True

    def _refusal(self, text: str) -> bool:
        if text.strip() == self.text.strip() and no_preference(self):
            return True  # "dont mind who" to the piercer asked: no preference, not a search
        found = refusal(text)
        words, explicit = found if found else (None, False)
        if words is None and self.expect is not None and self.expect.act == "ask" and \
                self.view.kind_of(self.expect.field) == "str":
            # "he has no email"; "I've only got the card number, not the account number"
            words = lacks_asked_thing(text, self.expect.field) or refused_by_name(text, self.expect.field) \
                or (m.group(0) if shape(self.expect.field) == "name" and (m := ANONYMOUS.search(text)) else None) \
                or (late_refusal(text, self.expect.field) if shape(self.expect.field) != "text" else None)
            if words and self.value_for(self.expect.field, _after_words(text, words)) is not None \
                    and shape(self.expect.field) in ("code", "email"):
                words = None  # "I've lost my phone, use my daughter's: 07700 900123": the value is given after all
        bare_no = self.expect is not None and self.expect.act == "ask" and self._declinable(self.expect.field) and (
            closing(text) or re.fullmatch(r"(?:no|nope|nah|none|nothing)(?:[,\s]+(?:thanks|thank\s+you|ta))?"
                                          r"(?:[,\s]+(?:that'?s|that\s+is)\s+all)?"
                                          r"(?:\s+for\s+now)?[.!]*", text, re.I))
        declines = self.expect is not None and self.expect.act == "ask" and \
            self._declinable(self.expect.field) and self._declines_optional(self.expect.field, text)
        if not words and not bare_no and not declines:
            return not_done_refusal(self, text)  # "no I haven't sent anything" to the photos' code
        if words and not explicit and "?" in text[text.lower().find(words.lower()) + len(words):] \
                and _ASKS_WHAT_FITS.search(text[text.lower().find(words.lower()) + len(words):]):
            self.note("doubt-asks", text, reason="a doubt, then a question about what there is: nothing is declined; "
                                                 "the agent asks again")
            self.answered = True
            return True  # "not sure tbh, what have you got free?": no "NA" for the day, which the user will choose
        if words and not explicit and self.expect is not None and self.expect.act == "ask" and \
                self.view.kind_of(self.expect.field) in ("date", "time") and \
                len(_after_words(text, words).split()) <= 4 and not is_question(_after_words(text, words).replace("?", "")) \
                and not re.search(r"\b(?:by|before|after|last|was|were|had)\b", _after_words(text, words), re.I) \
                and self.value_for(self.expect.field, _after_words(text, words)) is not None:
            return False  # "dunno, 7ish?": a guess after the doubt is the answer, not a refusal
        last = [p for p in re.split(r"(?<=[.!?])\s+", _after_words(text, words) if words else "") if p.strip(" .?!")][-1:]
        if words and not explicit and last and self.expect is not None and self.expect.act == "ask" and \
                (self.view.kind_of(self.expect.field) in ("date", "time") or (self.view.kind_of(self.expect.field) in (
                    "int", "float") and "?" not in last[0])) and len(last[0].split()) <= 4 and \
                not _ASKS_START.match(last[0]) and self.value_for(self.expect.field, last[0].rstrip("?")) is not None:
            return False  # "not sure yet... maybe the week after next? tuesday the 25th?", "not sure.. 6 maybe? put 6"
        if words and _OTHER_WILL_DO.search(text):
            self.note("refusal-asks", text, reason="it asks whether something else will do: a question, no refusal")
            self.answered = True
            return True  # "I don't have the ticket, will the receipt do?": nothing is stored; the agent asks again
        clause = next((c for c in re.split(r"[,;.!?]\s*|\s+-\s+", text) if words and words.lower() in c.lower()), text)
        bag = Bag.of(clause)  # "rather not give my number out, I'll be on the boat anyway": the number, not the boat
        target = (self.expect.rec, self.expect.field) if self.expect else (None, None)
        best = field_mention(self.expect.field, bag)[0] if self.expect else 0
        held_named = False
        if words:
            for rec, f in self.candidates() + self._text_fields():
                score = field_mention(f, bag)[0]
                if not self.view.unfilled(rec, f) and not all(stem(w) in bag.stems for w in f.name.split("_") if w):
                    held_named = held_named or (score >= 2 and score > best)
                    continue  # "no particular date": not the tour's date, held already; "I don't know my account
                    # number" to the PIN names the number held, in full
                if score >= 2 and score > best:
                    target, best = (rec, f), score
        if held_named and self.expect is not None and target == (self.expect.rec, self.expect.field) \
                and field_mention(self.expect.field, bag)[0] == 0:
            self.note("refusal-of-held", text, reason="a doubt about a value already given; nothing is declined")
            self.answered = True
            return True  # "not sure about the date actually" to the time asked: neither field is declined
        rec, f = target
        if rec is None or f is None or self.view.kind_of(f) in ("confirm", "bool") and not words:
            return False
        thing = _REFUSED_THING.search(text)
        if thing and self.expect is not None and (rec, f) == (self.expect.rec, self.expect.field) and \
                not any(same_word(stem(thing.group(1)), s) or _compound_of(thing.group(1), s)
                        for s in field_stems(f) | {stem(w) for w in f.name.split("_") + f.description.lower().split()}):
            self.note("refusal-elsewhere", text, reason=f"refuses '{thing.group(1)}', which is not what was asked")
            return False  # "rather not give my number" to the home size: not a refusal of the home size
        if self.view.kind_of(f) == "confirm" or (self.view.kind_of(f) == "str" and shape(f) == "text"
                                                  and not explicit and not self._declines_optional(f, text)):
            return False
        if not explicit and self.view.kind_of(f) == "str" and shaped_reference(f, text):
            return False  # "dont know it off by heart, its on the car... MA19 OPL": the example's shape answers it
        if words and not explicit and hedged_value(self, text, words, rec, f):
            return True  # "not sure yet... maybe BK 210?": the value floated is the answer
        if words and not explicit and self.expect is not None and (rec, f) == (self.expect.rec, self.expect.field) \
                and self.view.kind_of(f) in ("date", "time") and self.value_for(f, text) is not None:
            return False  # "not sure, maybe the 14th, or is the 12th free?": a day floated, read as the answer
        if words and not explicit and floated_range(self, text, words, rec, f):
            return True  # "no idea, could be 3 grand, could be 6": two guesses, neither the value nor a refusal
        if found is not None and not explicit and (self.view.kind_of(f) == "row" or names_for(self, f)) \
                and (f.required or is_question(text) or not _DEFERS.fullmatch(_after_words(text, words))):
            # "no idea tbh, whatever you think" to an optional room declines it; "not sure yet", "not sure, someone
            # good with knees" leave the choice to come
            # "not sure where yet, what's good for pizza?": a doubt about a choice among the agent's rows says it
            # is not chosen yet; nothing is refused, and a question beside it is read as a question
            self.note("refusal-undecided", words, field=f.name, reason="a choice among the KB's rows, not made yet")
            self.undecided = True
            if is_question(text):
                return self._question(_asked_part(text))
            self.answered = True
            return True
        self.assign("refusal", words or text, rec, f, REFUSAL)
        asked = self.expect
        if words and asked is not None and asked.act == "ask" and (asked.rec, asked.field) != (rec, f):
            # "It's 44556677 but I never set up a PIN": the words before the refusal answer the question asked
            before = re.split(r"[,;]?\s*\b(?:but|though|although|however)\b", text.split(words)[0], flags=re.I)[0]
            if re.search(r"[\d@]", before):  # a number, code or address: not "I" of "I never set up a PIN"
                self._typed_answer(before) or self._str_answer(before)
        return True

    def _tells_more(self, rec: TaskRecord, f: Field, value: str, text: str) -> bool:
        """ "my general waste bin wasn't collected this morning", read by meaning as the task: the task it opens
        takes the rest of the turn only when the turn names one of its options in full or says a date or time
        (the words that chose the task by meaning are not read again as an option: "moving out" is no "Moving
        Away")."""
        overlay = {rec.var: {**rec.values, f.name: value}}
        opened = [ws for ws in self.spec.task_worksheets() if ws.predicate.strip()
                  and holds(ws.predicate, self.view.lookup(None, overlay)) is True]
        low = f" {' '.join(re.findall(r'[a-z0-9]+', text.lower()))} "
        named = any(f" {' '.join(re.findall(r'[a-z0-9]+', ev.value.lower()))} " in low
                    for ws in opened for g in ws.fields for ev in g.enum_values)
        if opened and not named and self.ctx.kb is not None and any(
                self.view.kind_of(g) == "row" for ws in opened for g in ws.fields if g.kind == "input"):
            from .kb_rows.change import named_row  # late: the row rules import this module
            named = named_row(self, text, whole_only=True) is not None  # "tickets for the phantom lighthouse pls"
        return bool(opened) and (named or bool(find_dates(text, self.today) or find_times(text)))

    def _declinable(self, f: Field) -> bool:
        """A field a bare "no" or "nah" refuses: a text field, or an optional number, date or time ("nah" to
        "what are your things worth, for the insurance?"; a required count is not skipped by a "no")."""
        kind = self.view.kind_of(f)
        return kind == "str" or (not f.required and kind in ("int", "float", "date", "time", "list"))

    def _declines_optional(self, f: Field, text: str) -> bool:
        """ "no thanks, it's not a gift" to an optional text question declines it; a bare "no" stays the text."""
        return not f.required and (declines(text) or negates_field(field_stems(f, with_description=False), text)
                                   or (shape(f) != "text" and negates_described(field_stems(f), text)))

    def _text_fields(self) -> list[tuple[TaskRecord, Field]]:
        return [(r, f) for r in self.view.live_records() for f in self.view.input_fields(r)
                if self.view.kind_of(f) == "str"]

    def _same_as(self, text: str) -> bool:
        return same_as_rule(self, text)

    def _change(self, text: str) -> bool:
        return change_rule(self, text)

    def _row_change(self, text: str) -> bool:
        return row_change(self, text)

    def _special_request(self, text: str) -> bool:
        said = special_request_rule(self, text)
        if said is None:
            return False
        rest = text.replace(said, " ", 1).strip(" ,.!?;") if said in text else ""
        if rest and not self.answered and not is_question(rest):
            self._typed_answer(rest) or self._str_answer(rest)  # "6 people. one of us uses a wheelchair so we need
            # ...", "Jo Bloggs. btw my husband might drop her off": the answer too
        return True

    # ------------------------------------------------------------ answers to the question asked
    def _typed_answer(self, text: str) -> bool:
        e = self.expect
        if e is None or e.act != "ask" or self.answered:
            return False
        kind = self.view.kind_of(e.field)
        if kind in ("Enum", "bool", "int", "float", "date", "time", "confirm") and not is_question(text) \
                and not (kind == "Enum" and self.enum_value(e.field, text) is not None) and name_elsewhere(self, text):
            self.answered = True  # "Oliver Pennington-Shaw" to "which test?": the name for the one name field open
            return True
        if kind == "Enum" and (_asks_about_world(text) or _ASKS_ABOUT_IT.match(text)):
            return False  # "what's the deadline to drop a course?", "does that work for city bikes?" ask the KB
        before = len(self.rules)
        if kind == "Enum" and describe_task(self, text, e.rec, e.field):
            self.answered = True
            said = next((r["matched"] for r in self.rules[before:] if r.get("statement")
                         and r["statement"].startswith(f"{e.rec.var}.{e.field.name} =")), "")
            if not find_dates(said, self.today) or any(
                    said.lower() in d.text.lower() and re.sub(r"^(?:on|a|the)\s+", "", d.text.strip(), flags=re.I).lower()
                    != said.lower() for d in find_dates(text, self.today)):
                said = ""  # only an option that is also a day is read once: "next thursday", "thursday week" give the
                # option and a date of their own too
            if not self._extras(text, e.rec, answered=said if said.lower() in text.lower() else ""):  # one value once
                story_after_option(self, text, e.rec, e.field)  # "something else - I want to know if ..."
            return True
        if kind == "Enum" and not is_question(text) and not yes_no(text):
            if self.task_choice(e) and self._whole_reading(text):
                return True  # "my key snapped in the lock": the task and the option inside it that the words mean
            part = day_part_option(e.field, text)
            if part is not None:  # "first thing ideally", "about 10am" to Morning / Afternoon / Any Time
                self.assign("answer-day-part", text, e.rec, e.field, part, type="Enum")
                self.answered = True
                return True
            found = semantic_enum(self, e.field, text)
            if found is not None:
                value, ranked = found
                self.assign("answer-semantic", ranked.text, e.rec, e.field, value, type="Enum", **ranked.trace())
                self.answered = True
                self._extras(text, e.rec)  # "the shop is Crabpots, 7 Kiln Lane HX2 9PL": the address too
                if e.rec.parent is None and self._tells_more(e.rec, e.field, value, text):
                    open_activated(self, {e.rec.var: {e.field.name: value}}, text, Bag.of(text),
                                   rule="answer-semantic", hints={})
                return True
            value = described_option(e.field, text)
            if value is not None:  # "3 months is enough": words only that option's description has
                self.rules = [r for r in self.rules if r["rule"] != "enum-uncertain"]
                self.assign("answer-option-words", text, e.rec, e.field, value, type="Enum")
                self.answered = True
                return True
        if kind == "bool" and (said := contrast_answer(e.field, text, e.rec.worksheet)) is not None:
            self.assign("answer-contrast", text, e.rec, e.field, said)  # "it's a company car actually"
            self.answered = True
            return True
        if kind == "bool" and NOTHING_OF_THE_KIND.match(text) and not NEGATIVE_QUESTION.search(e.field.description):
            self.assign("answer-none", text, e.rec, e.field, False)  # "none", "nothing like that" to "any allergies?"
            self.answered = True
            return True
        if kind in ("str", "task", "bool", "confirm", "Enum"):
            return False
        if kind == "row":
            yn = yes_no(text)
            if not text.strip(" .!?") or is_question(text) or _SEARCH_START.match(text) or (yn and not yn[2]):
                return False  # a bare "yes" names no row; questions and searches are read below
            if yn and not [w for w in content_stems(yn[2]) if w not in HEDGES and w not in AGREEING]:
                return False  # "yep that's right", "yes confirm": an agreement, no words to search for
            if yn and not yn[0] and (declines(text) or closing(yn[2] or text)):
                return False  # "no that's everything": a no to some other question, no row to search for
            if typed_elsewhere(self, yn[2] if yn else text, e) or name_elsewhere(self, text) \
                    or option_elsewhere(self, text):
                self.answered = True
                return True  # "it's 0798765432", "Priya Nair", "standard": values for other fields, not a search
            text = room_after_row(self, text, e.rec, e.field)  # "queens wharf, flat 12 room 3": the room apart
            extras = self._extras(text, e.rec)
            rejected = [n.words for n in negations(text) if find_dates(n.what, self.today) or find_times(n.what)]
            from .changes.edits import SAME_FIELDS, same_fields  # late: edits imports the intents
            same = [m.group(0).strip(" ,;") for m in SAME_FIELDS.finditer(text)]  # "X at 3pm, same crew"
            query = search_query(text, said_texts(extras) + rejected + same, set())
            if same:
                same_fields(self, text, e.rec, {e.field.name} | {m.field.name for m in extras})
            if query is None and extras:
                self.answered = True
                return True  # "not Friday, Saturday": only other values; the restaurant is asked again
            if query is None and not [w for w in content_stems(text) if w not in HEDGES]:
                return False  # "um, maybe": no words to search for
            query = query or text.strip(" .!?")
            if self.ctx.kb is not None and len(sentences(text)) > 1:
                from .kb_rows.change import named_row  # late: the row rules import this module
                query = named_row(self, text, whole_only=True) or query  # "the ashfield depot is closest to us.
                # sorting i think?": the row named in full, not the whole story
            self.emit("answer-to-ask", text, f"{e.rec.var}.{e.field.name} = answer({literal(query)})", type="kb")
            self.answered = True
            return True
        if kind == "int" and bound_answer(self, text):
            return True  # "the max then": the most the field allows, from its description, its checks or the KB
        if kind in ("int", "float") and is_question(text):
            said = _said_before_tag(text)  # "let's say 4, I can always extend right?": the number, then a tag
            if said is None:
                return False  # "How many units is CS 448?" asks; it does not answer
            text = said
        if kind == "int" and (clause := none_clause(e.field, text)):  # "no cars needed, and maybe 30 people"
            self.assign("answer-to-ask", clause, e.rec, e.field, 0, type=e.field.type)
            self.answered = True
            self._extras(text, e.rec, answered=clause)
            return True
        if kind in ("int", "float") and measure_of(e.field) is not None:  # "130 x 160", "2m 40 wide"
            sized = [(r, f) for r, f in self.candidates(records=[e.rec], unfilled_only=True)
                     if self.view.kind_of(f) in ("int", "float")]
            found = measures(text, sized, {f.name: self.view.kind_of(f) for _r, f in sized}, asked=e.field)
            if any(f.name == e.field.name for _r, f, _v, _s in found):
                rest = text
                for rec, f, value, span in found:
                    self.assign("answer-to-ask" if f.name == e.field.name else "extra-value", span.text, rec, f, value)
                    rest = rest[:span.start] + " " * (span.end - span.start) + rest[span.end:]
                self.answered = True
                matched = next(span.text for _r, f, _v, span in found if f.name == e.field.name)
                extras = self._extras(rest, e.rec, answered=matched,  # "she's 9 metres and filling up with water"
                                      skip={f.name for _r, f, _v, _s in found})
                clause_options(self, text, e.rec, [matched, *(m.matched for m in extras)])
                return True
        if kind in ("int", "float") and labelled_numbers(self, text, e.rec, e.field):
            return True
        if kind in ("int", "float"):  # "just the one. memb no 44120": a number labelled for another field is not the count
            others = [(r, f) for r, f in self.candidates(records=[e.rec], unfilled_only=True) if f.name != e.field.name]
            for m in find_mentions(text, others, self.view, self.today):
                if m.how in ("short label", "named field") and m.span is not None and m.span.text in text:
                    text = text.replace(m.span.text, " " * len(m.span.text), 1)
        value = self.value_for(e.field, text)
        if value is None and kind == "int" and _JUST_ONE.fullmatch(text) and counts_people(e.field):
            self.answers.matched, value = text, 1  # "just her" to "how many applicants?"
        if value is None:
            return False
        self.assign("answer-to-ask", self.answers.matched, e.rec, e.field, value, type=e.field.type)
        self.answered = True
        if kind == "int":
            zero_counts(self, text, e.rec, e.field.name)  # "me and my partner, no kids": 0 children too
        matched = self.answers.matched
        extras = self._extras(text, e.rec, answered=matched)
        clause_options(self, text, e.rec, [matched, *(m.matched for m in extras)])  # "he's 11 and he's limping"
        if not extras:
            story_after_option(self, text, e.rec, e.field)  # "something else - I want to know if ..."
        return True

    def task_choice(self, e: Expect) -> bool:
        """The question asked is the start worksheet's choice of task."""
        start = self.spec.start_worksheet()
        return e.rec.parent is None and start is not None and e.rec.worksheet == start.name

    def _whole_reading(self, text: str) -> bool:
        """The turn read against the options inside the tasks by meaning (as an opening turn is), when that
        reading is decided: "my key snapped in the lock" chooses the call-out and its problem. Nothing is kept
        of an undecided reading, so the answer is then read against the question's options as before."""
        start, roots = self.expect.rec.worksheet, task_roots(self)
        shared = shared_options(self, roots)
        inner = rank_tasks(self, text, keep=lambda e: e.kind == "enum" and e.worksheet != start and e not in shared)
        if not inner.decided(TASK_THRESHOLD, TASK_MARGIN):
            return False
        nearest = rank_tasks(self, text).best  # the task the whole reading leads to must be the option's own
        if nearest is None or root_of(self, roots, nearest) != root_of(self, roots, inner.best):
            return False
        before = len(self.rules)
        if apply_reading(self, inner, text, "task-semantic"):
            self.answered = True
            return True
        del self.rules[before:]
        return False

    def _pointed_answer(self, text: str, e: Expect) -> bool:
        """ "sounds good, enroll me in it for a letter grade" to a text field that names KB rows: the row in focus
        (the one just reported, the one code of the last question, ...) by its label, when the words name no row
        and no code of their own."""
        pointed = _POINTED_OBJECT.search(text)
        if pointed is None or shape(e.field) not in ("short", "code") or is_question(text) or find_codes(text) \
                or not names_for(self, e.field) or said_names(self, e.field, text):
            return False
        found = asked_code(self) or focus(self)  # "who teaches CS 155?" ... "I'll take it": the code the user said
        if found is None:
            return False
        self.assign("answer-in-focus", pointed.group(0), e.rec, e.field, found[0], source=found[1])
        self.answered = True
        self._extras(text, e.rec)
        return True

    def _extras(self, text: str, rec: TaskRecord, answered: str = "", skip: set[str] | None = None) -> list[Mention]:
        """Other unfilled fields of the same record that the answer also fills ("tomorrow at 7"), but those in
        `skip` (fields the same turn's rule already filled).

        The words that answered the question give no second value: "three nights" fills the nights asked,
        not also the number of guests."""
        candidates = [c for c in self.candidates(records=[rec], unfilled_only=True,
                                                 exclude=self.expect.field if self.expect else None)
                      if c[1].name not in (skip or set())]
        at = text.lower().find(answered.strip().lower()) if answered.strip() else -1
        if at >= 0:  # blank the answer out, so that its words are read once
            text = text[:at] + " " * len(answered.strip()) + text[at + len(answered.strip()):]
        day = _WEEKDAY_BEFORE.search(text[:at]) if at >= 0 else None  # "from friday 1st august": the weekday of
        # the date answered is that date, no second one
        asked = self.expect.field if self.expect is not None and self.expect.act == "ask" else None
        opened = [(r, f) for r, f in candidates if asked is not None and r.var == self.expect.rec.var
                  and re.search(rf"\bself\.{re.escape(asked.name)}\b", f.predicate or "")
                  and not _WHOSE.search(text)]  # "mine is helen@ward.net and hers is ...": the words say whose
        first = find_mentions(text, opened, self.view, self.today, prefer=rec) if opened else []
        for m in first:  # "email is fine, send it to rob@x.net": the e-mail the answer just asked for (the recipient's)
            text = text.replace(str(m.matched), " " * len(str(m.matched)), 1)
        mentions = first + find_mentions(text, [c for c in candidates if c[1].name not in {m.field.name for m in first}],
                                         self.view, self.today, prefer=rec)
        if asked is not None and self.view.kind_of(asked) == "str" and shape(asked) == "email":
            mentions = [m for m in mentions if m.how != "email"]  # the e-mail asked for is its answer, not another's
        if day is not None:
            mentions = [m for m in mentions if not (m.span is not None and self.view.kind_of(m.field) == "date"
                                                    and day.start() <= m.span.start < day.end())]
        taken = {m.field.name for m in mentions}
        mentions += [m for m in column_mentions(text, candidates, self.vocabulary, self.ctx.kb)
                     if m.field.name not in taken]
        for m in mentions:
            self.assign("extra-value", m.matched, m.rec, m.field, m.value)
        if mentions:  # "a flat, top floor (3rd)": the floor of a flat is asked once the turn has made it a flat
            opened = [(r, f) for r, f in self.candidates(records=[rec], unfilled_only=True, exclude=self.expect.field
                      if self.expect else None) if (r.var, f.name) not in {(c.var, g.name) for c, g in candidates}]
            more = find_mentions(text, opened, self.view, self.today, prefer=rec) if opened else []
            for m in more:
                self.assign("extra-value", m.matched, m.rec, m.field, m.value)
            mentions = mentions + more
            taken |= {m.field.name for m in more}
        bare_flag(self, text, rec, taken)
        listed_digits(self, text, rec, candidates, taken)  # "Ana Ruiz, 04417, ana@..., and yes I'm ..."
        named = [(f, n) for _r, f in candidates if self.view.kind_of(f) == "str" and shape(f) == "short"
                 and f.name not in taken for n in [proper_name_answer(self, text, f)] if n]
        if len(named) == 1:  # "it's a city bike, a Brompton" to the kind asked: the make beside it
            self.assign("proper-name", named[0][1], rec, named[0][0], named[0][1])
        return mentions

    # ------------------------------------------------------------ questions and searches
    def _answer_and_question(self, text: str) -> bool:
        typed = self.expect is not None and self.view.kind_of(self.expect.field) in ("int", "float", "date", "time")
        return answer_then_question(self, text, self._typed_answer if typed else self._str_answer, self._question)

    def _question(self, text: str) -> bool:
        asked = is_question(text)
        e = self.expect
        echo = _ECHOED.match(text) if asked and e is not None and e.act == "ask" else None
        if echo and {stem(w) for w in re.findall(r"[a-z]+", echo.group("word").lower())} <= field_stems(e.field) \
                and not is_question(echo.group("rest")):
            typed = self.view.kind_of(e.field) in ("int", "float", "date", "time")  # "cars? no, none": the field's
            if (self._typed_answer if typed else self._str_answer)(echo.group("rest")):  # word echoed, answered
                return True
        if e is not None and e.act == "ask" and _WHY_ASKED.match(text):
            given = _GRUDGING.sub("", text[text.find("?") + 1:]).strip() if "?" in text else ""
            before = len(self.lines)
            plain = self.view.kind_of(e.field) in ("int", "float", "date", "time") or (
                self.view.kind_of(e.field) == "str" and shape(e.field) in ("code", "email"))  # never a text's words
            if given and plain and not self.answered and (self._typed_answer(given) or self._str_answer(given)) \
                    and len(self.lines) > before:
                return True  # "do you really need my phone? fine, 07700 900777": the question, then the answer
            what = e.field.description.strip(" .") or e.field.name.replace("_", " ")
            self.note("no-match", text, reason="a question about the question asked: the agent says why, asks again",
                      say=f"I need {_needed(what)} before I can go on.")
            return True
        if asked and not [w for w in re.findall(r"[a-z']+", text.lower()) if w not in _BARE_QUERY]:
            self.note("no-match", text, reason="a question with no words to look up (\"eh?\"): the agent says "
                                               "it did not understand and asks again")
            return True
        if asked and e is not None and e.act == "ask" and self.view.kind_of(e.field) == "str" \
                and shape(e.field) == "text" and not _INTERROGATIVE.match(text) and not text.rstrip().endswith("?"):
            return False  # "I want to know if I can return early" describes the problem the field asks for
        if asked and all(plea(q) for q in question_sentences(text)) and not _SEARCH_START.match(text):
            return False
        if asked and _MAY_I.match(text) and requested_values(self, text):
            return True  # "could she be picked up from 14 Elm Grove please?": the values asked for, not the KB
        last = sentences(text)[-1] if asked and len(sentences(text)) > 1 else ""
        if last and _MAY_I.match(last) and is_question(last) and not any(is_question(p) for p in sentences(text)[:-1]) \
                and not AVOIDED.search(last) and requested_values(self, last):
            return True  # "we got it at auction last month. could someone come Friday 14th at 3?": the same, last
        target = self._row_target(text, asked is not None)
        if not asked and target is None and not (_LOOKING_FOR.match(text) and self.ctx.kb is not None and (
                e is None or self.view.kind_of(e.field) in ("Enum", "row"))):  # never a text field's answer
            return False
        if not self.has_kb():
            self.note("question-no-kb", asked or text, reason="this agent has no knowledge base")
            told = [p for p in sentences(text) if not is_question(p) and not chit_chat(p)]
            if told and target is None:  # "is this the right place?? my card was used in Paris, I've never been":
                self._problem(" ".join(told))  # the question has no answer here; the story still says what happened
            return True
        text = narrow_previous(self, text)
        if target is not None:
            rec, f = target
            mentions = find_mentions(text, self.candidates(records=[rec]), self.view, self.today, prefer=rec)
            for m in mentions:
                if m.rec.values.get(m.field.name) != m.value:
                    self.assign("extra-value", m.matched, m.rec, m.field, m.value)
            query = search_query(text, said_texts(mentions), set())
            meant = _MEANT.search(text)
            if meant and self.ctx.kb is not None:  # "i said weavers yard, i meant wrenfield house": the row meant
                from .kb_rows.change import named_row  # late: the row rules import this module
                query = named_row(self, meant.group("rest"), whole_only=True) or query
            if query and mentions and len(content_stems(query)) <= 2 and self.ctx.kb is not None \
                    and not self.vocabulary.found_in(query, self.ctx.kb):
                query = None  # "can I drop it at 7:45 on the 18th?": the values were the point, not a search
            if query is None and not mentions and asked and e is not None and e.act == "ask" \
                    and (e.rec.var, e.field.name) == (rec.var, f.name) and _WHAT_IS_THERE.search(text):
                query = text.strip(" ?!.")  # "what have you got?" to "which inspection?": every row it can be
            if query:
                self.emit("question-fills-field", self.row_words or asked or text,
                          f"{rec.var}.{f.name} = answer({literal(query)})")
                return True
            return bool(mentions)
        questions = question_sentences(text) or [text]
        about_state = [q for q in questions if state_question(q)]
        questions = [q for q in questions if not state_question(q)]
        if about_state:
            self.note("question-about-state", state_question(about_state[0]) or "",
                      reason="the state answers it; the agent's next act shows the details")
        if not questions:
            return True
        query = " ".join(clean_question(q) for q in questions)
        context = [p for p in sentences(text) if not is_question(p)]
        if is_bare_request(query) and context:
            query = search_phrase(" ".join(context))
        elif context and self.ctx.kb is not None:  # "... I want to learn some Spanish. Do you have something for
            told = [t for t in self.vocabulary.found_in(" ".join(context), self.ctx.kb)  # beginners?": the
                    if t.lower() not in query.lower()]  # story's KB values scope its question
            if 0 < len(told) <= 2:
                query = f"{query} {' '.join(told)}"
        query = decontextualise(self, query)
        if (e is None or self.task_choice(e)) and not self.kb_first and asked_task(self, query, text):
            return True  # "how do I pay the deposit?" with no deposit in the KB: the task Pay Deposit
        self.emit("question", asked or "?", f"answer({literal(query)})")
        return True

    def _about_a_row(self, text: str) -> bool:
        """The question is about a row it names or points at ("is priya sharma any good?", "will it have ...")."""
        if re.search(r"\b(?:it|he|she|they|them|him|her|that|this|those|these)\b", text, re.I):
            return True
        from .kb_rows.change import named_row  # late: the row rules import this module
        return self.ctx.kb is not None and named_row(self, text) is not None

    def _row_target(self, text: str, asked: bool) -> tuple[TaskRecord, Field] | None:
        """A field holding a KB row that this question searches for (e.g. the restaurant to book)."""
        e = self.expect
        if self.undecided:
            return None  # "not sure where yet, what's good for pizza?": the answer helps choose, it chooses nothing
        if asked and _POINTED_ROW.search(text) and self.state.kb_records():
            return None  # "does the first one have a patio?": a question about a row shown, not a new search
        if asked and _YES_NO_ABOUT.match(text) and self._about_a_row(text):
            return None  # "is priya sharma any good?", "will it have peonies in February?": asked of the KB, no choice
        if e is not None and self.view.kind_of(e.field) == "row" and asked:
            if _asks_of_the_rows(text) and not _CHOSEN_BESIDE.search(text) and \
                    (self.ctx.kb is None or _named_row(self, text) is None):
                return None  # "which churches in Millford have an organ?": a question about the rows, answered;
                # the row is chosen from what it shows (tests written blind read it so, 39 of 48)
            return e.rec, e.field
        searching = _SEARCH_START.match(text) is not None
        kb_terms = self.vocabulary.found_in(text, self.ctx.kb) if self.ctx.kb is not None else []
        if not (asked or searching or kb_terms):
            return None
        if not (asked or searching) and e is not None and e.act == "ask" and self.view.kind_of(e.field) != "row" \
                and not change_marker(text):
            return None  # "1 bed apt 18 elm st eastgate" to the address asked: a KB value in an answer is no search
        bag = Bag.of(text)
        for rec in self.view.live_records():
            for f in self.view.input_fields(rec):
                if self.view.kind_of(f) != "row":
                    continue
                value = rec.values.get(f.name)
                pending = value is None or self.view.kb_record(ref_target(value) or "") is not None
                type_words = {stem(w) for w in re.findall(r"[A-Z]?[a-z]+", parse_type(f.type).base)}
                named = searching or bag.hits(type_words | field_stems(f)) or kb_terms
                if named and (pending or (kb_terms and change_marker(text))):
                    self.row_words = ", ".join(kb_terms) if kb_terms and not asked else ""
                    return rec, f
        return None

    # ------------------------------------------------------------ describing the task or the problem
    def _opening(self, text: str) -> bool:
        """Nothing was asked: statements describe the task, questions beside them are asked as well."""
        if self.expect is not None:
            return False
        if len(find_codes(text)) >= 2 and predicted_answer(self, text):
            return True  # "CS 221 and CS 229, both for a letter grade": one course record each
        parts = sentences(text)
        verbs = task_verbs(self.spec)  # "can you hold it for me?" asks for the task whose option says "hold"
        requests = [p for p in parts if task_request(p) or asks_to(p, verbs)]
        statements = " ".join(p for p in parts if not is_question(p) or p in requests)
        questions = [p for p in parts if is_question(p) and not plea(p) and p not in requests]
        if not statements or not (describe_task(self, statements) or (requests and semantic_task(
                self, statements, threshold=REQUEST_TASK_THRESHOLD, margin=REQUEST_TASK_MARGIN))):
            return bool(statements) and offer_asked_for_oneself(self, questions, statements)
        if questions and self.has_kb() and not any("answer(" in line for line in self.lines):
            self._question(" ".join(questions))
        return True

    def _describe(self, text: str) -> bool:
        if self.expect is not None and self.expect.act == "ask" and self.view.kind_of(self.expect.field) == "str":
            return False
        return describe_task(self, text)

    def _unasked(self, text: str) -> bool:
        return self.expect is None and predicted_answer(self, text)

    def _problem(self, text: str) -> bool:
        """An opening that tells what happened fills the record's free-text field for it."""
        asked_and_told = self.introduced and self.answered  # "Hi, this is Greg Haines, someone charged my card"
        if (self.expect is not None and not asked_and_told) or (self.lines and not self.introduced) \
                or len(text.split()) < 4 or labelled_only(self, text):
            return False
        for rec in self.view.live_records():
            if rec.parent is not None:
                continue
            for f in self.view.worksheet(rec).fields:
                if f.kind == "input" and not f.dont_ask and self.view.kind_of(f) == "str" and shape(f) == "text" \
                        and self.view.unfilled(rec, f):
                    labelled, told = labelled_values(self, text)  # "account 61029384 pin 8812 - I need to ..."
                    labelled = [m for m in labelled if m.how == "email" or (m.how == "named field" and m.span is not None
                                and label_kind(text, m.span.start, m.field, []) == "this")]  # the label right before
                    told = self._labelled_story(text, labelled) if labelled else text
                    kept = [s for s in sentences(_GREETING.sub("", told)) if not plea(s) and not request_only(s)
                            and (not labelled or len(content_stems(s)) >= 2)]
                    if kept and not self.introduced and (named := name_sentence(self, kept[0])) is not None:
                        self.assign("introduction", kept[0], *named)  # "Dolores Mbeki. My purse was stolen ..."
                        kept = kept[1:]
                        labelled = labelled or [named]
                    if labelled and not kept:
                        return True
                    if kept:
                        self.assign("problem-description", text, rec, f, free_text(" ".join(kept)))  # no "HELP"
                        return True
                    self.note("task-request", text, reason="names the task without telling what happened")
                    return True
        return False

    def _labelled_story(self, text: str, labelled: list[Any]) -> str:
        """Assign values labelled in an opening ("account 61029384 pin 8812 - I need to ..."), a part not opened
        yet built with its values (`main.x = Part(a=..., b=...)`); return the turn without their words."""
        parts: dict[str, dict[str, str]] = {}
        for m in sorted(labelled, key=lambda m: -m.span.start if m.span is not None else 0):
            if m.rec.var.startswith("_"):
                parts.setdefault(m.rec.worksheet, {})[m.field.name] = literal(m.value)
            else:
                self.assign("value-for-other-field", m.matched, m.rec, m.field, m.value, how=m.how)
            if m.span is not None:  # the value and its label, from the end of the turn backwards
                text = text[:label_start(text, m.span.start)] + " " + text[m.span.end:]
            else:
                text = text.replace(str(m.value), " ", 1)
        for worksheet, kwargs in parts.items():
            slots = [(r, g) for r in self.view.live_records() for g in self.view.input_fields(r)
                     if self.view.kind_of(g) == "task" and parse_type(g.type).base == worksheet
                     and self.view.unfilled(r, g)]
            if len(slots) == 1:
                self.emit("labelled-value", ", ".join(kwargs.values()),
                          f"{slots[0][0].var}.{slots[0][1].name} = {worksheet}({kwargs_text(kwargs)})")
        return re.sub(r"\s+([.,!?;])", r"\1", re.sub(r"\s+-\s+", ". ", text))

    def _name_beside_code(self, text: str, e: Expect, code: str) -> None:
        """The words beside a code answer are a person's name as typed ("it's under Chidi Okafor"): the record's
        one unfilled name field (not the one asked) takes it."""
        at = text.find(code)
        rest = (text[:at] + " " + text[at + len(code):]).strip(" ,.;:-!")
        name = clean_name(rest) if rest else None
        if not name or name not in rest or not PERSON_NAME.fullmatch(name):
            return
        names = [f for f in self.view.input_fields(e.rec) if f.name != e.field.name and shape(f) == "name"
                 and self.view.kind_of(f) == "str" and self.view.unfilled(e.rec, f)]
        if len(names) == 1:
            self.assign("value-for-other-field", rest, e.rec, names[0], name, how="a person's name beside the code")

    def _str_answer(self, text: str) -> bool:
        e = self.expect
        if e is None or e.act != "ask" or self.answered or self.view.kind_of(e.field) != "str":
            return False
        if several_codes(self, text, e.rec, e.field):
            self.answered = True
            return True
        shaped = shaped_reference(e.field, text)
        if shape(e.field) == "code" and not is_postcode_field(e.field) and not is_phone_field(e.field) \
                and not (shaped and shaped.lower() in text.lower()):  # "plot a-009" for "like C-214": A-009, below
            tokens = [t for t in code_tokens(text) if not find_postcodes(t)]
            before = re.findall(r"[a-z]+", text[:text.find(tokens[0])].lower())[-1:] if len(tokens) == 1 else []
            others = {w for f in self.view.input_fields(e.rec) if f.name != e.field.name for w in f.name.split("_")}
            if len(tokens) == 1 and not code_value(text) and text.strip(" .!") != tokens[0] and not negations(text) \
                    and not (before and before[0] in others) and not names_another_thing(text, tokens[0]) \
                    and not find_mentions(text, self.candidates(records=[e.rec], unfilled_only=True, exclude=e.field),
                                          self.view, self.today):  # only a sentence about the code, no other values
                # "the hostel worker gave me one, KB-REF-7781": the one code in a sentence about it
                self.assign("answer-to-ask", tokens[0], e.rec, e.field, tokens[0], type="str", shape="code")
                self.answered = True
                self._extras(text.replace(tokens[0], " "), e.rec)
                return True
        ends = postcode_ends(text, [f for f in self.view.input_fields(e.rec) if self.view.kind_of(f) == "str"
                                    and (f.name == e.field.name or self.view.unfilled(e.rec, f))])
        if e.field.name in ends:  # "SN1 4BJ -> GL50 3PR" to "which postcode are you moving from?"
            for name, (value, said) in ends.items():
                f = next(f for f in self.view.input_fields(e.rec) if f.name == name)
                self.assign("answer-to-ask" if name == e.field.name else "extra-value", said, e.rec, f, value)
            self.answered = True
            return True
        if address_parts(self, text, e.rec, e.field):
            self.answered = True
            return True  # before the shapes: the postcode is one part
        if not shaped_reference(e.field, text):  # "reg is LR68 KXT" to "make and model?": the plate's shape
            shaped = [(f, v) for f in self.view.input_fields(e.rec) if f.name != e.field.name
                      and self.view.kind_of(f) == "str" and self.view.unfilled(e.rec, f)
                      for v in [shaped_reference(f, text)] if v]
            if len(shaped) == 1:
                self.assign("value-for-other-field", shaped[0][1], e.rec, shaped[0][0], shaped[0][1],
                            how="the example's shape", reason="a value of another field's example shape")
                self.answered = True
                return True
        if is_make_field(e.field) and len(text.split()) <= 5:
            kinds = [(f, v) for f in self.view.input_fields(e.rec) if self.view.kind_of(f) == "Enum"
                     and self.view.unfilled(e.rec, f) for v in [described_option(f, text)] if v]
            if len(kinds) == 1:  # "its a family hatchback" to "make and model?": the kind of car, not its name
                self.assign("value-for-other-field", text, e.rec, kinds[0][0], kinds[0][1], how="option described",
                            reason="a description of a kind is no make or model")
                self.answered = True
                return True
        if named_answer(self, text, e.rec, e.field):
            self.answered = True
            return True
        if address_answer(self, text, e.rec, e.field):
            self.answered = True
            return True
        if is_address_field(e.field) and not re.search(r"\d", text) and name_elsewhere(self, text):
            self.answered = True
            return True  # "Aiko Tanaka" to the address asked: the name for the name field, not an address
        text = address_beside(self, text, e.rec, e.field)
        parts = labelled_parts(self, text, e.rec, e.field)
        if parts:  # "plate is 8KJD203, its a blue Honda Civic": each part to its own field
            for f, value, piece in parts:
                self.assign("labelled-part", piece, e.rec, f, value)
            self.answered = True
            return True
        parts = described_parts(self, text, e.rec, e.field)
        if parts:  # "mother's maiden name is Walsh and my first pet was a cat named Pepper"
            for f, value, piece in parts:
                self.assign("described-part", piece, e.rec, f, value)
            self.answered = True
            return True
        several = self.answers.multi_fill(text, e.rec, e.field)
        if several:
            for f, value, piece in several:
                self.assign("multi-value", piece, e.rec, f, value)
            flags = [(e.rec, f) for f in self.view.input_fields(e.rec) if self.view.kind_of(f) == "bool"
                     and self.view.unfilled(e.rec, f) and f.name not in {g.name for g, _v, _p in several}]
            for m in bool_mentions(text, flags, self.view, set()):  # "..., meilin@x.edu. I am an international student."
                self.assign("extra-value", m.matched, m.rec, m.field, m.value)
            dated = [(e.rec, f) for f in self.view.input_fields(e.rec) if self.view.kind_of(f) in ("date", "time")
                     and self.view.unfilled(e.rec, f) and f.name not in {g.name for g, _v, _p in several}]
            for m in find_mentions(text, dated, self.view, self.today, prefer=e.rec) if dated else []:
                self.assign("extra-value", m.matched, m.rec, m.field, m.value)  # "Hannah Price, she's arriving
                # friday the 20th for 5 nights": the day beside the count
            self.answered = True
            return True
        if shape(e.field) in ("short", "name") and typed_elsewhere(self, text, e):
            return True
        named = proper_name_answer(self, text, e.field) if shape(e.field) == "short" else None
        if named is not None:  # "great, it's a city bike, a Brompton": the make, and the kind beside it
            self.assign("proper-name", named, e.rec, e.field, named)
            self.answered = True
            self._extras(text, e.rec, answered=named)
            return True
        if self._pointed_answer(text, e):
            return True
        value = self.value_for(e.field, text)
        if value is None:
            return False
        if shape(e.field) == "short" and code_value(str(value)) is None and names_for(self, e.field) \
                and not said_names(self, e.field, str(value)):
            # "Dana Whitfield" or "looks right to me" to "the course code or title": the field names rows of the
            # KB and the words name none of them, nor look like a code: not taken (the other rules may read them)
            self.note("not-a-row-name", text, field=e.field.name, reason="names no row of the KB the field names")
            return False
        if shape(e.field) == "text":
            flags = [(e.rec, f) for f in self.view.input_fields(e.rec) if self.view.kind_of(f) == "bool"
                     and self.view.unfilled(e.rec, f)]
            tail = declined_tail(text, flags) if flags and isinstance(value, str) and value == text.strip() else None
            if tail is not None and text[:tail[0]].strip(" ,.;!"):  # "... I'll bring a bag. No meds, he's fit"
                value = text[:tail[0]].strip(" ,.;!")
                self.assign("declined-after-text", text[tail[0]:], tail[1], tail[2], False)
            self.assign("free-text", text, e.rec, e.field, value, type="str", shape="text")
            self.answered = True
            return True
        extras = find_mentions(text, self.candidates(records=[e.rec], unfilled_only=True, exclude=e.field),
                               self.view, self.today, prefer=e.rec)
        if is_address_field(e.field):  # "18 elm st eastfield" to the pickup address: not the delivery address
            extras = [m for m in extras if m.how != "address"]
        cues = [m for m in extras if m.how == "enum cue"]  # a phrase of an option is too weak to take the answer's
        extras = [m for m in extras if m.how != "enum cue"]  # words away ("two margheritas, thin crust" to the
        # dishes asked: the dishes); it is kept only beside the answer ("Mabel May, little motor cruiser")
        if shape(e.field) == "email":  # "kate.lowe@gmail.com" to the recipient's e-mail: not also the buyer's
            extras = [m for m in extras if m.how != "email"]
        code = code_value(text)
        if shape(e.field) == "code" and (labelled := self.answers.labelled_code(e.field, text)) is not None \
                and labelled.value == value:
            code = labelled  # "acc 40817726, pin 2291": the code its label names, among several
        coded = code is not None or (isinstance(value, str) and (value == shaped_reference(e.field, text) or (
            shape(e.field) == "code" and [value] == [t for t in code_tokens(text) if not find_postcodes(t)])))
        # "ref is INK-30577 and it's under Chloe Brennan": the one code token of the turn is the code asked
        # "ref is PS-31057 and email ...": a token of the field's example shape is its answer beside the others
        rest = None
        if code is not None and any(m.span is not None and m.span.start <= code.start < m.span.end for m in extras):
            if shape(e.field) == "code" and value == code.value:  # "485 777 3456" to the code asked: its answer,
                extras = [m for m in extras if m.span is None  # not also the phone its digits could be
                          or not m.span.start <= code.start < m.span.end]
            else:
                code = None  # "Leeds, LS2 9PJ" to the town: the code is the postcode field's, not this one's
        if extras and shape(e.field) == "short" and all(m.how in ("colour", "address", "postcode") for m in extras) \
                and not (code is not None and value == code.value):  # "GB41 LLP red hunter": the code is the value
            rest = rest_of_answer(text, [m.span for m in extras if m.span is not None])  # "black Ford Focus"
            if rest is None and is_address_field(e.field) and all(m.how == "postcode" and m.span is not None
                                                                  for m in extras):
                spans = sorted((m.span for m in extras if m.span is not None), key=lambda sp: sp.start)
                if not text[spans[-1].end:].strip(" .!?"):  # "27b Hollins Road, Oldham OL8 4JX": the street
                    rest = re.sub(r"[\s,;-]+$", "", text[:spans[0].start]).strip() or None  # and town, the code apart
            if rest and is_address_field(e.field):
                rest = clean(rest)  # "ok. 5 Riverside Mews SB1 9TX": not "ok."
            value = rest or value
        elif extras and shape(e.field) in ("name", "short") and all(m.span is not None for m in extras) and \
                isinstance(value, str) and any(ch.isdigit() for ch in value) and \
                _capitalised_name(left := rest_of_answer(text, [m.span for m in extras if m.span is not None])):
            rest = value = left  # "Euan MacLeod 07834 112233": the phone went to its field, the name is what is left
        elif extras and shape(e.field) == "short" and all(m.span is not None for m in extras) and \
                len(str(value).split()) > 3:  # the field's own reading found no short value (a month, a name)
            rest = (address_region(text) if is_address_field(e.field) else None) or \
                leading_part(text, [m.span for m in extras if m.span is not None])  # "Drontal, just one pack"
            value = rest or value
        starts = [m.span.start if m.span is not None else _found_at(text, str(m.matched)) for m in extras]
        if extras and is_address_field(e.field) and not rest and min(starts, default=-1) > 0:
            first = min(starts)
            head = re.split(r"(?i),\s*(?:and\s+)?(?:it'?s|its|it\s+is|which|that'?s|we'?re|i'?m)\b", text[:first])[0]
            head = re.sub(r"(?i)[\s,;.-]*(?:(?:and\s+)?(?:it'?s|its|it\s+is|which\s+is|that'?s)(?:\s+an?)?)?[\s,;.-]*$", "",
                          head).strip()
            if head and any(ch.isdigit() for ch in head) and _leftover(text, extras):
                rest = value = head  # "41 Unthank Road, it's detached": the street, the size apart
        if is_address_field(e.field) and isinstance(value, str):
            value = with_town(value)  # "7 Mill Street in Westhill" is written "7 Mill Street, Westhill"
        if extras and not coded and not _leftover(text, extras):
            pass  # "four units": every word went to another field; nothing is left for this one
        elif extras and isinstance(value, str) and shape(e.field) == "short" and \
                any(m.span is not None and len(m.span.text) >= 5 and m.span.text in value for m in extras):
            left = _left_of_extras(text, extras)  # the value still holds another field's value
            if left:  # "a Trek Marlin 5, email trek.fan@gmail.com": the model, the e-mail apart
                self.assign("free-text", left, e.rec, e.field, left, type="str", shape=shape(e.field))
                self.answered = True
            else:
                self.note("value-doubtful", text, reason="what is left holds the values of other fields, not this "
                                                         "field's own; the question is asked again")
        elif extras and shape(e.field) == "short" and isinstance(value, str) and len(text.split()) > 3 and \
                " ".join(value.split()).casefold() == " ".join(text.split()).casefold():
            self.note("value-doubtful", text, reason="the whole turn, whose other values went to other fields, is no "
                                                     "short value of this one; the question is asked again")
        elif shape(e.field) == "short" and not coded and not extras and (doubt := doubtful_value(self, e.field, value)):
            self.note("value-doubtful", text, **doubt, reason="a long answer that does not read as this field; "
                                                             "the question is asked again")
        elif not extras or coded or rest or len(text.split()) <= 3 or \
                (shape(e.field) in ("name", "email") and str(value).lower() in text.lower()) or is_month_field(e.field) or \
                value == thing_name(e.field, text):
            rule = "free-text" if shape(e.field) == "short" else "answer-to-ask"
            self.assign(rule, text, e.rec, e.field, value, type="str", shape=shape(e.field))
            self.answered = True
            if shape(e.field) == "name" and not extras and isinstance(value, str):
                story_after(self, text, e, value)  # "Chris Palmer. found a cheaper cleaner to be honest"
                place_after_name(self, text, e.rec, value)  # "Dan Morris, 2 Hawthorn Mews"
            if value != text.strip():  # "for Max, my golden retriever": the other clause may choose an option
                clause_options(self, text, e.rec, [str(value), *(m.matched for m in extras)])
        for m in extras:
            self.assign("extra-value", m.matched, m.rec, m.field, m.value)
        for m in cues if self.answered and isinstance(value, str) else []:
            if str(m.matched).lower() not in value.lower():
                self.assign("extra-value", m.matched, m.rec, m.field, m.value)
        if self.answered and not extras and isinstance(value, str) and re.fullmatch(r"[\w-]*\d[\w-]*", value) \
                and value in text:
            self._name_beside_code(text, e, value)  # "HR-38002, it's under Chidi Okafor"
        if self.answered and code is not None and value == code.value and any(m.how == "colour" for m in extras):
            make_beside_colour(self, text, e.rec, [(code.start, code.end)] + [(m.span.start, m.span.end) for m in extras
                               if m.span is not None and m.how != "colour"], {e.field.name, *(m.field.name for m in extras)})
        bare_flag(self, text, e.rec, {m.field.name for m in extras})
        if self.answered:
            listed_digits(self, text, e.rec, self.candidates(records=[e.rec], unfilled_only=True, exclude=e.field),
                          {m.field.name for m in extras})
        return True


_SAYING = frozenset("i ill i'll it its it's we we'll you he she they will can is are was were do does did been "
                    "have has had would could should my our your me us".split())
_LEADS_NO_VALUE = frozenset("by if at before after on in for from until till to and or but so as".split())
_FILLERS = frozenset("poss possible possibly asap pls please thanks thx ta cheers latest ideally preferably hopefully "
                     "tbh btw lol".split())
_CONTACT_LEAD_WORDS = re.compile(r"\b(?:and\s+)?(?:(?:my|the|our)\s+)?(?:e-?mail|mobile|phone|number|tel|mob|"
                                 r"contact)(?:\s+(?:is|address|number))?\s*[:-]?\s*$", re.I)


def _left_of_extras(text: str, extras: list[Any]) -> str | None:
    """What is left of an answer once the other fields' values and their lead words are taken out, when it is a few
    words that say no sentence ("a Trek Marlin 5" of "a Trek Marlin 5, email trek.fan@gmail.com"); else None."""
    spans = sorted((m.span for m in extras if m.span is not None), key=lambda sp: sp.start)
    pieces, at = [], 0
    for sp in spans:
        pieces.append(_CONTACT_LEAD_WORDS.sub("", text[at:sp.start]))
        at = sp.end
    pieces.append(text[at:])
    left = " ".join(p.strip(" ,.;:-!?") for p in pieces if p.strip(" ,.;:-!?")).strip()
    words = [w.strip(".,!?") for w in left.lower().split()]
    if not words or len(words) > 6 or any(w in _SAYING for w in words) or words[0] in _LEADS_NO_VALUE or \
            not [w for w in words if w not in STOPWORDS and w not in HEDGES and w not in _FILLERS]:
        return None  # "by if poss" of "by friday if poss": the words around a date, no value
    return left


def _capitalised_name(text: str | None) -> bool:
    """Two to four capitalised words and nothing else: what is left of an answer is a person's name."""
    words = (text or "").split()
    return 2 <= len(words) <= 4 and all(w[:1].isupper() and w.replace("-", "").replace("'", "").isalpha()
                                        for w in words)


_ABOUT_IT = re.compile(r"^\W*(?:(?:and|so|ok|okay|oh|but|also|hmm|great|cool)[,\s]+)*(?:does|do|is|are|has|have|can|will|"
                       r"would)\s+(?:it|they|that(?:\s+one)?|this(?:\s+one)?|she|he)\b", re.I)
"""A yes/no question about the thing just shown ("does it come with a nord", "is that one step free")."""
_WHY_ASKED = re.compile(r"^\W*(?:(?:ok(?:ay)?|hmm|um|sorry|but|and|so|wait)[,\s]+)*(?:why\s+(?:do|would|d)\s+you\s+"
                        r"(?:need|want)|what\s+do\s+you\s+need\s+(?:it|that|this|them)\s+for|what'?s\s+(?:it|that)\s+for|"
                        r"(?:why|what)\s+does\s+(?:it|that|this)\s+matter|why\s+(?:do|would)\s+you\s+ask|"
                        r"why\s+is\s+(?:it|that|this)\s+(?:needed|important|relevant)|"
                        r"do\s+you\s+(?:really\s+|actually\s+)?need|is\s+(?:it|that|this)\s+(?:really\s+)?(?:needed|"
                        r"necessary|required|mandatory)|do\s+i\s+(?:really\s+)?(?:have|need)\s+to)\b", re.I)
"""A question about the question just asked ("why do you need that?", "do you need the exact date?")."""
_BARE_QUERY = frozenset({"eh", "huh", "what", "pardon", "sorry", "hmm", "hm", "um", "come", "again", "wha", "excuse",
                         "me", "you", "say", "that", "the", "i", "didn't", "get", "it", "sorry", "what's", "whats"})
"""Words of a question that asks to hear the agent again ("eh?", "sorry, what?"), with nothing to look up."""


_OTHER_WILL_DO = re.compile(r"(?:\b(?:will|would|does|do|can|could|is|are)\b[^.?!]{0,60}\b(?:do|work|count|suffice|help|"
                            r"instead|be\s+(?:ok|okay|fine|enough|any\s+good))|\b(?:can|could|may)\s+i\s+(?:use|give|send|"
                            r"try)\b[^.?!]{0,60})\s*\?\s*$", re.I)
"""A question after "I don't have it" that offers something else ("will the order number do?", "can I give you my
postcode instead?"): the user asks, and refuses nothing yet."""
_NOT_ON_ME = re.compile(r"\b(?:i\s+)?(?:haven'?t|havent|have\s+not|don'?t\s+have|do\s+not\s+have)\s+(?:got\s+)?"
                        r"(?:it|that|one|them)\s+(?:on\s+me|with\s+me|to\s+hand|here|handy)\b", re.I)
"""The value is not to hand ("havent got it on me"): a refusal for now, as "I don't know it" is."""
_LACKS = re.compile(r"\b(?:i|he|she|they|we|you|(?:my|our|his|her|their)\s+[a-z]+)\s+(?:doesn't|does\s+not|don't|do\s+not|doesnt|dont)\s+"
                    r"(?:have|use|do|own|got)\s+(?:an?\s+|any\s+)?(?P<thing>[a-z][a-z-]+)|"
                    r"\b(?:has|have|got)\s+no\s+(?P<none>[a-z][a-z-]+)|"
                    r"\b(?:i'?ve|i\s+have|we'?ve|we\s+have|i|we)\s+(?:lost|misplaced|thrown\s+away|threw\s+away|binned|"
                    r"can'?t\s+find)\s+(?:the|my|our)\s+(?P<lost>[a-z][a-z-]+)", re.I)


def lacks_asked_thing(text: str, f: Field) -> str | None:
    """ "he has no email", "my dad doesn't have one", "I've lost the receipt" (for a number "from the receipt"): the
    person has none of the thing the asked field names (a word
    of its name or description, or "one"): the words, read as a refusal; None otherwise."""
    away = _NOT_ON_ME.search(text)
    if away is not None:
        return away.group(0)  # "its on my card somewhere, havent got it on me": not to hand now
    m = _LACKS.search(text)
    if m is None:
        return None
    thing = stem((m.group("thing") or m.group("none") or m.group("lost")).lower())  # "I've lost the receipt" it is on
    own = field_stems(f) | {stem(w) for w in f.name.lower().split("_")}
    return m.group(0) if thing == "one" or any(same_word(thing, s) for s in own) else None


def _asked_part(text: str) -> str:
    """The question after a doubt ("not sure where yet, what's good for pizza?" -> "what's good for pizza?")."""
    parts = re.split(r"(?<=[,;.!?])\s+", text)
    at = next((i for i, p in enumerate(parts) if is_question(p)), 0)
    return " ".join(parts[at:]).strip() or text


def _compound_of(word: str, part: str) -> bool:
    """ "birthday" for a date of birth, "passcode" for a code: a compound that begins or ends with the field's own
    word (of four letters or more)."""
    word = word.lower()
    return len(part) >= 4 and len(word) > len(part) and (word.startswith(part) or word.endswith(part))


_REFUSED_THING = re.compile(r"\b(?:give|share|tell|say|provide|disclose)\s+(?:you\s+)?(?:my|our|the)\s+([a-z]{3,})", re.I)
"""What a refusal says it will not give ("rather not give my number"): it refuses that thing."""
_WHOSE = re.compile(r"\b(?:my|mine|his|her|hers|their|theirs|own|your)\b", re.I)
_DEFERS = re.compile(r"[\s,.!-]*(?:(?:tbh|honestly|mate|really|lol|to\s+be\s+honest)[\s,.!]*)*(?:(?:i'?m\s+)?happy\s+"
                     r"with\s+(?:whatever|any(?:one|thing)?)(?:\s+\w+){0,4}|whatever\s+you\s+(?:think|recommend|"
                     r"suggest)|you\s+tell\s+me|you\s+choose|up\s+to\s+you|any(?:one|thing)?\s+is\s+fine)?"
                     r"[\s,.!]*(?:tbh|mate|really|lol)?[\s,.!]*", re.I)
"""What may follow a doubt that declines an optional choice: nothing, or leaving it to the agent."""
_ASKS_START = re.compile(r"\W*(?:what|which|when|where|who|why|how|is|are|do|does|can|could)\b", re.I)
_MEANT = re.compile(r"\b(?:i|we)\s+(?:meant|mean)\s+(?:to\s+say\s+)?(?P<rest>.+)$", re.I)
_YES_NO_ABOUT = re.compile(r"^\W*(?:(?:before\s+i\s+say\s+yes|ok|okay|so|and|but|hmm+|oh|wait|sorry|also)\W+)*"
                           r"(?:is|are|was|does|do|did|will|would|has)\s+(?!there\b|you\b|u\b|any\b|i\b|we\b)", re.I)
"""A yes/no question about something ("is priya sharma any good?"): not a search that chooses the row asked for
("is there ...", "do you have ..." are)."""
_CLAUSE_WORDS = frozenset("""can can't cannot will won't wait need needs want wants is are was were be have has do does
don't doesn't i i'm we we're you it it's that's please thanks""".split())
"""Words of a clause that no address without a number has ("the caddy can wait")."""
_SHORT_WORD = {"appt": "appointment", "appts": "appointments", "msg": "message"}
_SHORT_WORDS = re.compile(r"(?<![\w'.@-])(?:appts?|msg)(?![\w'.@-])", re.I)
"""Words typed short in chat that no spec writes so ("my appt is on tuesday"): read in full."""
_PROSE_TAIL = re.compile(r"(?:[\s,;.!-]*(?:unfortunately|to\s+be\s+honest|tbh|if\s+that'?s\s+ok(?:ay)?|if\s+thats\s+ok(?:ay)?|"
                         r"lol|haha)\b)*[\s!]*$", re.I)
"""What ends a told story without being part of it: a closing hedge, laughter and "!" (a full stop stays; thanks
may be the words told: "it says Cheers!")."""
_WANTS = re.compile(r"\b(?:i'?d\s+like|i\s+would\s+like|we'?d\s+like|we\s+would\s+like|i\s+want|we\s+want|"
                    r"i\s+need|we\s+need|(?:can|could|may)\s+(?:i|we)\s+(?:get|have|book|make|arrange|schedule)|"
                    r"please\s+(?:book|arrange|schedule)|book\s+(?:me|us)|sign\s+(?:me|us)\s+up|"
                    r"(?:^|(?<=[.!?]\s))(?:just\s+|really\s+)?(?:wanna|want\s+to|looking\s+to|hoping\s+to)"
                    r"(?!\s+(?:know|check|ask|compare|hear|see|find\s+out|understand|make\s+sure|be\s+sure)\b))\b",
                    re.I)
"""Words that ask for something to be done, which a story with a question beside it does not have ("want to get
one for my sister's birthday", a sentence whose "I" is left out, too)."""
_ASKS_WHAT_THERE_IS = re.compile(
    r"^\W*(?:(?:hi|hello|hey|so|and|ok|okay|oh|um|quick\s+question)[,!\s]+)*(?:can|could|may)\s+(?:i|we)\b|"
    r"\b(?:do|does)\s+(?:you|u|ya|your\s+\w+)\s+(?:do|have|offer|sell|take|allow|let)\b|"
    r"(?:^|[,;]\s*)(?:which|what)\s+\w+", re.I)
"""A question about what is possible or on offer ("can I bring my dog ...?", "do u do paddle boards", "..., which
boats can he get on?"), not a request that the agent act ("can you sort it out?")."""
_HOW_IT_GOES = re.compile(r"^\W*(?:(?:and|so|ok|okay|also)[,\s]+)*(?:what'?s|what\s+is|what\s+are)\s+the\s+"
                          r"(?:process|procedure|steps|rules|policy|deal)\b|^\W*(?:(?:and|so|ok|okay|also)[,\s]+)*"
                          r"how\s+(?:does\s+(?:it|that|this)\s+work|do\s+i\s+go\s+about\s+it)\b", re.I)
"""A question after another that asks how a thing goes ("what's the process?", "how does that work?")."""
_WHAT_YOU_HAVE = re.compile(r"^(?:\W*\w+[,\s]+){0,3}?(?:do|does)\s+(?:you|your\s+\w+)\s+(?:have|offer|do)\b|"
                            r"\b(?:are|is)\s+there\s+(?:any|a|an|some)\b|\bhave\s+you\s+got\b|^\W*(?:you|u)\s+have\b",
                            re.I)
"""A question about what the business has ("Do you have movers who ...?", "is there a crew that ...?")."""
_WHAT_YOU_DO = re.compile(r"^(?:\W*(?:hi|hello|hey|so|and|ok|okay|um)[,!.\s]+)*(?:do|does)\s+(?:you|u|your\s+\w+)"
                          r"(?:\s+guys)?\s+(?!have\b)[a-z]+\b", re.I)
"""A question about what the business does ("do you guys fix electric bikes"), with no request and nothing of the
user's own: the KB answers it first (the user then asks for the task)."""
_DO_IT = re.compile(r"^\W*(?:(?:ok(?:ay)?|now|then|yes|yeah|yep|please|alright|all\s+right|right|great|perfect|fine|"
                    r"good|cool|so)[,.!\s]+)*(?:please\s+)?(?:submit|send|book|file|place|confirm|finali[sz]e|process|"
                    r"complete|lodge|go\s+ahead|go\s+on|proceed|go\s+for\s+it|lock\s+(?:it|that|this)\s+in|"
                    r"(?:let'?s\s+)?go(?=\W*$))"
                    r"(?:\s+(?:it|that|this|them|the\s+\w+))?"
                    r"(?:[,\s]+(?:now|please|then|thanks|thank\s+you|anyway|anyways|after\s+all))*[.!]*$", re.I)
"""What the user says to a summary to have it done ("now submit", "ok, send it please"): a yes to the confirmation."""
def _settled_yes_no(text: str, *, clauses: bool = False) -> tuple[bool, str, str] | None:
    """A bare yes or no that ends the turn after words that hedge or look for it ("think so, somewhere in my
    handbag... yes"): the answer settled on, when nothing before it says the opposite. With `clauses`, also the
    last clause of one sentence ("his wife, yes": who comes along, then the yes to "will anyone come with you?")."""
    parts = [p for p in re.split(r"\.{2,}|…|(?<=[.!?])\s+", normalise(text)) if p.strip(" .,!?")]
    if len(parts) == 1 and clauses:  # "his wife, yes": who, then the yes, in one sentence
        parts = [p for p in re.split(r"\s*[,;]\s*|\s+-+\s+|\s+(?:so|then)\s+(?=(?:yes|yeah|yep|yup|no|nope|nah)\W*$)",
                                     parts[0], flags=re.I) if p.strip(" .,!?")]
        # "I'm on an F-1 visa so yes": the reason, then the answer it leads to
    if len(parts) < 2 or re.match(r"\W*(?:if|unless|only\s+if|as\s+long\s+as|provided)\b", parts[0], re.I):
        return None  # "if it's free then yes": a condition, not the answer
    last = yes_no(parts[-1])
    if last is None or last[2].strip(" .,!?"):
        return None
    if any((yn := yes_no(p)) is not None and yn[0] != last[0] for p in parts[:-1]) or negations(" ".join(parts[:-1])):
        return None
    return last[0], parts[-1].strip(" .,!?"), ""


_NOT_YET = re.compile(r"^.{0,40}?\b(?:don'?t|do\s+not|please\s+don'?t)\s+(?:submit|send|book|file|place|confirm|"
                      r"process|finali[sz]e|lodge|go\s+ahead)\b(?:\s+(?:it|that|this|them|anything))?(?:\s+(?:yet|now|"
                      r"just\s+yet))?\b|^\W*(?:(?:hmm|wait|hold\s+on|ok(?:ay)?|so)[,.!\s]+)*not\s+(?:yet|now|just\s+yet)\b",
                      re.I)
"""A summary held back ("hmm hold on, don't submit it yet", "wait, not yet"): a no to the confirmation, for now."""
_NOT_DONE = re.compile(
    r"^\W*(?:(?:hmm+|um+|erm|well|oh|ah|no|nope|nah)[,.!\s]+)*(?:not\s+yet\b|(?:not|never)\s+(?!sure\b|certain\b)[a-z]+ed\b|"
    r"(?:(?:i|we|he|she|they)\s+)?(?:haven'?t|havent|hasn'?t|hasnt|have\s+not|has\s+not)\b)", re.I)
"""A yes/no question answered with what has not happened yet ("not yet, still deciding", "not asked them yet",
"haven't joined"): no. A doubt ("not sure", "haven't a clue") is a refusal, read before this."""
_GOOD_TO_GO = re.compile(r"^\W*(?:(?:ok(?:ay)?|yes|yeah|yep|great|perfect|lovely|right)[,.!\s]+)*(?:we'?re\s+|all\s+)?"
                         r"good\s+to\s+go(?:[,.!\s]+(?:thanks|thank\s+you|cheers|ta|thx))*[\s.!]*$", re.I)
_UNDECIDED = re.compile(r"\b(?:decided|bothered|fussed|thought|considered|sure|checked\s+yet|made\s+(?:up\s+)?my\s+mind|"
                        r"worked\s+(?:it\s+)?out)\b", re.I)
_YET_MEANS_YES = re.compile(r"\b(?:under|first|still|new|before|never|not|no|without|pending|outstanding|awaiting|"
                            r"yet|unpaid|overdue|expired?)\b", re.I)
"""A question whose "not yet" is a yes ("Whether the rider is under 18": "he hasn't turned 18 yet"; "the pet's first
visit": "we haven't been before"): the no-yet rule keeps off it."""
_THATS_IT = re.compile(r"^\W*(?:(?:ok(?:ay)?|yes|yeah|yep|great|perfect)[,.!\s]+)?(?:that'?s|thats|that\s+is)\s+"
                       r"(?:it|everything|all\s+of\s+it)(?:[\s,.!]+(?:yes|yeah|yep|yup|ok(?:ay)?|thanks|thank\s+you|ta|"
                       r"cheers|thx|great|perfect|lovely))*[\s.!]*$", re.I)
"""A summary agreed to by saying nothing is left to change ("thats it yes"); asked whether to go ahead only."""
_LOOKS_RIGHT = re.compile(r"^\W*(?:(?:ok(?:ay)?|thanks|thank\s+you)[,.!\s]+)*(?:(?:(?:that|this|it|everything|all\s+that|"
                          r"that\s+all|it\s+all)\s+)?(?:all\s+)?(?:looks|sounds|seems|is)|that'?s|it'?s)\s+"
                          r"(?:all\s+)?(?:good|great|perfect|right|fine|correct|spot\s+on|lovely)\b",
                          re.I)
"""A summary agreed to in other words ("that all looks perfect, thank you!"): a yes to the confirmation."""
_POINTED_ROW = re.compile(r"\b(?:the\s+(?:first|second|third|fourth|fifth|last|top|other)(?:\s+one)?|that\s+one|"
                          r"this\s+one|number\s+\d|option\s+\d|#\d)\b", re.I)
"""A question pointing at a row the user was shown ("does the second one have parking?")."""


_ASKS_ABOUT_IT = re.compile(r"^\W*(?:(?:and|but|so|ok|okay|hmm)[,\s]+)*(?:does|do|is|are|will|would|can|could)\s+"
                            r"(?:that|it|this|they|those|these|the\s+\w+)\s+(?:\w+\s+){0,4}?\w+.*\?\s*$", re.I)
"""A question about the thing in focus ("does that work for city bikes?"): asked of the KB, not an answer."""
_ASKS_WHAT_FITS = re.compile(r"\b(?:what|which|when|whats|what'?s)\b[^?]{0,40}\b(?:got|have|free|available|open|"
                             r"recommend|suggest|left|next|earliest|soonest|cheapest|cheaper|quietest|best)\b|"
                             r"\bany\s+(?:suggestions|ideas|recommendations)\b|"
                             r"\bwhenever\b[^?]{0,30}\?", re.I)
"""A question after a doubt that asks what there is to choose from: "what have you got free?", "which days are open?"."""
_ENDS = re.compile(r"\b(?:return|returns|returning|end|ends|ending|finish|finishes|until|till|back|check\s*out|"
                   r"departure|leave|leaving|last)\b", re.I)
"""Words of a date field that comes after the record's other dates (the return of a hire after its pickup)."""


def _found_at(text: str, words: str) -> int:
    """Where the words of a value start in the text, spaces and hyphens aside ("semi detached" in "semi-detached")."""
    m = re.search(r"[\s-]+".join(map(re.escape, words.split())), text, re.I) if words.split() else None
    return m.start() if m else -1


_ABOUT_SELF = re.compile(r"\W*(?:i|i'?m|i\s+am|we|we'?re|he|he'?s|she|she'?s|they|they'?re|you|it'?s\s+(?:a|an|the|so|very|"
                         r"really|just|not))\b", re.I)
_REMARK_WORDS = frozenset("""ok okay sorry yes yeah yep no nah right well hmm um erm er oh ah so thanks thank you cheers
fine sure great lovely cool not bad good brilliant perfect alright and but then just actually wait hang on""".split())
"""Words a remark around a value is made of ("ok, not bad", "sorry"): such a part is never read as a value."""
_TAKING_REQUEST = re.compile(r"^\W*(?:(?:and|also|oh|ok|okay|so|then|hi|hiya|hey|hello|right)[,!.\s]+)*(?:can|could|may)\s+"
                             r"(?:i|we)\s+(?:please\s+)?(?:just\s+)?(?:grab|get|have|book|reserve|hire|rent|take|nab)\b"
                             r"(?!\s+(?:a\s+)?(?:refund|look|word|quote|answer|hand|idea)\b)", re.I)
"""A request to have something, put as a question ("can i grab the boardroom tmrw...", "could we book ..."); not
"can i come and look round", "can i pay by card", "can i get a refund"."""
_OWN_BOOKING = re.compile(r"\b(?:my|our)\s+(?:\w+\s+){0,3}?(?:booking|appointment|order|reservation|session|visit|slot)\b",
                          re.I)
"""A booking the user already has ("can i move my booking from friday ..."): not a new one."""
_ECHOED = re.compile(r"^\W*(?:(?:the|my|our|um+|er+|erm|hmm+)\s+)?(?P<word>[a-z]+(?:\s+[a-z]+)?)\s*\?+\s*(?P<rest>\w.*)$", re.I)
"""The word of the question asked, echoed with a question mark, then the answer ("cars? no, none")."""
_MAY_I = re.compile(r"^\W*(?:(?:and|also|oh|ah|wait|hang\s+on|actually|sorry|um+|hmm+|ok|okay|so|then|hi|hiya|hey|hello|right)[,!.\s]+)*(?:could|can|would|will|may)\s+(?:i|we|you|she|he|they|some(?:one|body)|"
                    r"it|my|our|the\s+\w+)\b|^\W*(?:is|would)\s+it\s+(?:be\s+)?(?:possible|ok(?:ay)?|fine|alright)\b|"
                    r"^\W*(?:would|will|does|do|how\s+about|what\s+about)\b.*\b(?:suit|work|do|be\s+(?:ok(?:ay)?|fine|possible|"
                    r"alright|free))\W*(?:you|for\s+you)?\W*$", re.I)
"""A request phrased as a question ("could she be picked up from ...?", "is it possible to come at 5?")."""


def _asks_about_world(text: str) -> bool:
    """A wh-question that is not about the user's own thing ("my", "our") and asks for no task: a question
    for the KB even when it says an option's words ("when is the deadline to drop a course?")."""
    return bool(_WH_QUESTION.match(text)) and not task_request(text) and \
        (_OWN_THING.search(text) is None or _HOW_TO.match(text) is not None)


def _leftover(text: str, mentions: list[Mention]) -> list[str]:
    """Content words of `text` not spent on the mentions' values or on naming their fields."""
    body = text
    for m in mentions:
        if m.span is not None:
            body = body.replace(m.span.text, " ")
        elif m.matched:
            body = re.sub(re.escape(m.matched), " ", body, flags=re.I)
    named = {s for m in mentions for s in field_stems(m.field)}
    return [w for w in Bag.of(body).stems if not any(same_word(w, n) for n in named)]


_DAY_WORDS = re.compile(r"\b(?:a\.?\s?m|p\.?\s?m|morning|afternoon|evening|tonight|night|noon|midnight)\b|"
                        r"\d(?:am|pm)\b", re.I)


def _needed(what: str) -> str:
    """A field's description as the object of "I need ...": "the hull number", "to know why you are cancelling"."""
    what = what[:1].lower() + what[1:]
    return f"to know {what}" if re.match(r"(?:why|how|what|when|which|who|whether|where|if)\b", what) else what


def _same_half_of_day(kind: str, old: Any, new: Any, text: str) -> Any:
    """ "push it to 8:30" after 8 pm: a new time said with no am/pm or part of the day is on the side of noon
    nearest the time it replaces (20:30, not 08:30; "11" after 14:00 is 11:00, not 23:00)."""
    if kind != "time" or not isinstance(old, str) or not isinstance(new, str) or _DAY_WORDS.search(text):
        return new
    m_old, m_new = re.fullmatch(r"(\d\d):(\d\d)", old), re.fullmatch(r"(\d\d):(\d\d)", new)
    if m_old and m_new and int(m_old.group(1)) >= 13 and 1 <= int(m_new.group(1)) <= 11:
        held = int(m_old.group(1)) * 60 + int(m_old.group(2))
        said = int(m_new.group(1)) * 60 + int(m_new.group(2))
        if not EVENING.get() and 7 <= int(m_new.group(1)) <= 11 and abs(said + 720 - held) > 180:
            return new  # a daytime trade's "change it to 10" after 17:00 is the morning, not 22:00 (but "quarter past
            # 8" after 20:00 is 20:15)
        if abs(said + 720 - held) < abs(said - held):  # on the side of noon nearest the time held: 11 after 14:00
            return f"{int(m_new.group(1)) + 12:02d}:{m_new.group(2)}"  # stays 11:00, not 23:00
    if m_old and m_new and int(m_old.group(1)) == 12 and 1 <= int(m_new.group(1)) <= 6:
        return f"{int(m_new.group(1)) + 12:02d}:{m_new.group(2)}"  # "1:30 not 12:30": after noon, not at night
    return new


def _factory(agent: Any, **options: Any) -> OfflineParser:
    _warm(agent.spec)
    return OfflineParser()


def _warm(spec: Any) -> None:
    """Build the spec's semantic index when a session starts (once per spec version and process), so the
    first turn that needs it does not pay for embedding every task, option and field text."""
    from .words.semantic_index import index_for
    try:
        index_for(spec)
    except Exception:  # noqa: BLE001 - the turn that needs the index builds it again and reports what failed
        pass


def _register() -> None:
    from ...session.agent import BACKEND_FACTORIES
    BACKEND_FACTORIES[("parser", "offline")] = _factory


_register()
