"""Refusals in the reader's language: a match format's reason with values (``games.api.MatchError`` with
``words``) reaches the error text translated first and filled in after, over the room's rules errors."""

from __future__ import annotations

from django.utils import translation

from games.api import N_, IllegalDecision, MalformedDecision
from tournament.messages import error_text
from tournament.rules.errors import IllegalAction
from tournament.rules.matches import _detail

# a msgid every catalog has (the lobby's timer), standing in for a format's reason with a value
SECONDS = N_("%(n)s seconds")


def test_a_reason_with_values_is_english_in_its_message_and_translated_for_its_reader() -> None:
    exc = IllegalDecision(SECONDS, words={"n": 30}, reason="example")
    assert str(exc) == "30 seconds" and exc.msgid == SECONDS and exc.params == {"reason": "example"}
    refused = IllegalAction(**_detail(exc))
    assert "30 seconds" in str(refused)  # the English message of the rules error
    with translation.override("nl"):
        assert error_text(refused) == "Die keuze mag hier niet: 30 seconden."
    with translation.override("de"):
        assert error_text(refused).endswith(": 30 Sekunden.")
    with translation.override("en"):
        assert error_text(refused) == "That choice is not allowed here: 30 seconds."


def test_a_reason_without_values_is_translated_as_before() -> None:
    exc = MalformedDecision("a reason nobody translated")
    assert exc.msgid == str(exc) == "a reason nobody translated" and exc.words == {}
    with translation.override("nl"):
        text = error_text(IllegalAction(**_detail(exc)))
    assert text == "Die keuze mag hier niet: a reason nobody translated."


def test_a_broken_translation_falls_back_to_the_english_sentence() -> None:
    exc = IllegalDecision("%(square)s is taken", words={"square": "e5"})
    broken = IllegalAction(detail=str(exc), detail_msgid="%(field)s is taken", detail_words=exc.words)
    assert error_text(broken) == "That choice is not allowed here: e5 is taken."
