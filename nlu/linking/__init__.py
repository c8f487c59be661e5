"""The entity linker's steps (issue 24): each module reads the values of the step before and adds its own.

:class:`nlu.linker.EntityLinker` runs them in this order (its module docstring has the table):

- :mod:`nlu.linking.tokens`: the message -> tokens with offsets and folded keys;
- :mod:`nlu.linking.matching` (with the F29 guard :mod:`nlu.linking.guard`) and :mod:`nlu.linking.fuzzy`:
  span proposal and candidate generation by the name index -> ``Span`` values; :mod:`nlu.linking.typo_windows`:
  names typed with a slip wherever they stand;
- :mod:`nlu.linking.works`: works named by their person ("TITLE by PERSON") -> the work's span;
  :mod:`nlu.linking.possessives`: "PERSON's TITLE" read among the person's works;
- :mod:`nlu.linking.filters`: spans that name no opinion's object leave;
- :mod:`nlu.linking.scoring`: features and scoring -> ranked ``Candidate`` values (``Ranked``);
- :mod:`nlu.linking.decision`: link, ask or drop -> ``Mention``.

:mod:`nlu.linking.index_build` builds the name index they look names up in; :mod:`nlu.linking.values`
holds the values passed between the steps, :mod:`nlu.linking.words` the word lists and
:mod:`nlu.linking.syntax` the questions about where a span sits in the message. The steps are scored
on their own by :mod:`nlu.link_eval` (``corsbot nlu evaluate-linking``).
"""
