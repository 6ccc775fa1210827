"""The web chat page of `genie serve` in Chromium: a restaurant booking, start to finish, offline.

Every request the page makes is checked: anything not to the agent's own server fails the
test (no CDN, no network). The same page opens from another site through `/widget.js`.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from tests.serve_support import Served, start_serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("serve_chat")
    server = start_serve("restaurant_reservation", f"sqlite:///{base / 'sessions.db'}", base / "serve.log",
                         env={"GENIE_API_KEYS": ""})
    yield server
    server.stop()


def only_local(page, origin: str) -> list[str]:
    """Abort and record every request that leaves the agent's server (or the test page)."""
    outside: list[str] = []

    def check(route) -> None:
        url = route.request.url
        if url.startswith(origin) or url.startswith(("about:", "data:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()
    page.route("**/*", check)
    return outside


def say(frame, text: str, expect: str) -> None:
    frame.get_by_label("Your message").fill(text)
    frame.get_by_role("button", name="Send").click()
    frame.locator("#log li.agent", has_text=expect).last.wait_for(timeout=30_000)


def test_chat_page_completes_a_booking(served: Served, page) -> None:
    outside = only_local(page, served.url)
    page.goto(f"{served.url}/chat")
    log = page.get_by_role("log")
    log.locator("li.agent").first.wait_for()
    assert "restaurant" in log.inner_text().lower()
    say(page, "Book Ragazza for 4 people tomorrow at 7 pm", "check the details")
    say(page, "yes", "Booking id")
    assert page.locator("#log li.user").count() == 2
    assert not page.locator("#log li.error").count()
    assert outside == []
    # the conversation is stored on the server and survives a reload of the page
    page.reload()
    page.locator("#log li.agent", has_text="Booking id").wait_for()


def test_widget_embeds_the_chat_with_one_script_tag(served: Served, page) -> None:
    outside = only_local(page, served.url)
    page.set_content(f'<html><body><h1>Some shop</h1><script src="{served.url}/widget.js"></script></body></html>')
    button = page.get_by_role("button", name="Chat")
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    frame = page.frame_locator("#genie-widget-panel")
    frame.locator("#log li.agent").first.wait_for()
    say(frame, "I want to book a table at Ragazza", "date")
    assert outside == []
