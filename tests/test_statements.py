"""The formal statement language: parsed with ast, never executed."""

from core_engine.dialogue.statements import (AnswerQuery, Ask, Assign, ConfirmValue, Const, Construct, Exit, PathRef,
                                    parse_statements, strip_fences)


def test_paper_statement_forms():
    text = "\n".join([
        'book_restaurant.date = "2024-07-06"',
        'main.external_test_credits = ExternalTestCredits(test_type="AP")',
        'answer("romantic restaurants in San Francisco")',
        'book_restaurant = BookRestaurant(restaurant=answer("pizza with a patio"), number_of_people=2)',
        'main.full_name = "NA"',
        "book_restaurant.time = None",
        "book_restaurant.restaurant = answer.result[1]",
        "main.courses_to_take.course_0_details.grade_type = 'Letter'",
        "confirm(book_restaurant.date)",
        "exitws(main)",
        "# Chit-chat, greeting or thanking",
    ])
    parsed = parse_statements(text)
    assert parsed.rejected == []
    s = parsed.statements
    assert s[0] == Assign(("book_restaurant", "date"), Const("2024-07-06"), s[0].source, 1)
    assert isinstance(s[1].value, Construct) and s[1].value.kwargs == (("test_type", Const("AP")),)
    assert isinstance(s[2], Ask) and s[2].query.startswith("romantic")
    assert isinstance(s[3].value, Construct) and isinstance(s[3].value.kwargs[0][1], AnswerQuery)
    assert s[5].value == Const(None)
    assert s[6].value == PathRef(("answer", "result", 1))
    assert s[7].target == ("main", "courses_to_take", "course_0_details", "grade_type")
    assert isinstance(s[8], ConfirmValue) and isinstance(s[9], Exit)
    assert len(s) == 10


def test_code_is_rejected_not_run(tmp_path):
    marker = tmp_path / "pwned"
    text = "\n".join([
        f'__import__("os").system("touch {marker}")',
        "import os",
        "main.x = open('/etc/passwd').read()",
        "main.__class__ = 1",
        "main.x = 1 + 1",
        "def f(): pass",
        "main.x = [i for i in range(10)]",
        'main.ok = "fine"',
    ])
    parsed = parse_statements(text)
    assert len(parsed.rejected) == 7
    assert [s.source for s in parsed.statements] == ['main.ok = "fine"']
    assert not marker.exists()


def test_syntax_error_in_one_line_keeps_the_others():
    parsed = parse_statements('main.a = "x"\nmain.b = = 2\nmain.c = 3')
    assert [s.source for s in parsed.statements] == ['main.a = "x"', "main.c = 3"]
    assert parsed.rejected[0]["line"] == 2 and "syntax error" in parsed.rejected[0]["error"]


def test_positional_constructor_args_rejected_with_hint():
    parsed = parse_statements('main.c = Course("CS 101")')
    assert "keyword arguments" in parsed.rejected[0]["error"]


def test_oversized_input_rejected():
    parsed = parse_statements("main.a = '" + "x" * 30_000 + "'")
    assert parsed.statements == [] and "longer than" in parsed.rejected[0]["error"]


def test_strip_fences_takes_code_blocks():
    text = "Plan: set the date.\n```python\nbook.date = \"2024-07-06\"\n```\n"
    assert strip_fences(text).strip() == 'book.date = "2024-07-06"'
