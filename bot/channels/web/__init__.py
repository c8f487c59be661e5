"""The web channel (issue 26): a browser chat for study participants, the researcher's console and the
outside evaluator's door, served by ``corsbot web`` (see ``docs/DESIGN.md``, "Channels").

Modules: :mod:`.app` (the ASGI application, Starlette + Jinja2), :mod:`.chat` (participants),
:mod:`.console` (researcher), :mod:`.door` (simulated users of other projects), :mod:`.intake` (turns
stored before they are answered, one participant's in order), :mod:`.dialogs` (the dialog managers of
the study's conditions, in the dialog worker processes), :mod:`.store` (the web tables),
:mod:`.study` (the study file), :mod:`.research` (figures, review queue, exports), :mod:`.retrain`
(retraining in the background), :mod:`.security` (limits, headers, CSRF, secrets), :mod:`.server`
(uvicorn). Only this package imports the web framework; this file imports nothing, so that the
dialog workers load :mod:`.dialogs` without it.
"""
