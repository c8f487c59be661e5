"""Issue 22, round 5, engineer 22-L3: titles and names a person's work or role says, on the real snapshots, with
titles and wordings of their own (none of the conversation sets'). Skipped when a snapshot has not been built."""

from __future__ import annotations

import pytest

from tests.nlu.real_linkers import tops


@pytest.mark.parametrize(
    ("domain", "text", "qid"),
    [
        ("movie", "Vertigo of Hitchcock is great", "Q202548"),
        ("movie", "I liked Memento of Nolan", "Q190525"),
        ("movie", "Jaws of Spielberg scared me", "Q189505"),
        ("book", "Dune of Frank Herbert is great", "Q190192"),
        ("book", "I read Emma of Jane Austen", "Q223880"),
        ("music", "Nevermind of Nirvana is great", "Q17444"),
        ("book", "Foundation of Asimov is a classic", "Q753894"),
        ("book", "The Stranger of Camus changed me", "Q163297"),
    ],
)
def test_a_title_of_its_creator_non_native_of_for_by_is_the_work(request, domain, text, qid):
    """ "TITLE of PERSON" for "TITLE by PERSON": the person's own work, the person only saying which."""
    assert tops(request.getfixturevalue(domain), text) == [qid]


@pytest.mark.parametrize(
    ("domain", "text", "qid"),
    [
        ("music", "the music of Queen is amazing", "Q15862"),
        ("book", "The Lord of the Rings is great", "Q15228"),
    ],
)
def test_of_before_a_name_that_is_no_work_of_theirs_changes_nothing(request, domain, text, qid):
    assert tops(request.getfixturevalue(domain), text) == [qid]


@pytest.mark.parametrize(
    ("text", "qid"),
    [
        ("Brahms was a genius composer", "Q7294"),
        ("Brahms is my favourite composer", "Q7294"),
        ("Beethoven was a genius composer", "Q255"),
        ("Clapton is an amazing guitarist", "Q48187"),
    ],
)
def test_a_role_noun_in_the_clause_makes_a_surname_the_best_known_performer(music, text, qid):
    """A music role noun ("composer", "pianist") says a performer; popularity says which of the namesakes."""
    assert tops(music, text) == [qid]
