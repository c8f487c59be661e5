# The README's two commands: `make run` (set up everything, run the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export CORSBOT_HOME ?= $(CURDIR)/var
SHARED ?= ../shared/data
DUMP := $(SHARED)/wikidata/wikidata-subset.nt.gz
SNAPSHOTS := $(foreach d,movie book music,$(CORSBOT_HOME)/kb/$(d)/kb.pack $(CORSBOT_HOME)/kb/$(d)/names.pack)

CHROMIUM ?= /usr/bin/chromium

.PHONY: run test lint setup kb model classifiers replay clean chromium
# kb.json.gz is the snapshot's source of truth (kb pack reads it): never deleted as an intermediate file
.SECONDARY: $(foreach d,movie book music,$(CORSBOT_HOME)/kb/$(d)/kb.json.gz)

$(BIN)/corsbot: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# the project's own modules compiled to bytecode as pip does for installed packages (an editable install is not):
# a start reads them instead of compiling ~150 modules, also where PYTHONDONTWRITEBYTECODE is set; a module edited
# since is compiled again in memory, never read stale
setup: $(BIN)/corsbot chromium
	@$(BIN)/python -m compileall -q corsbot_errors.py bot nlu recommender logs >/dev/null

# The browser tests (pytest -m browser) drive Debian's Chromium through Playwright's Python package (no
# browser download): installed here where it is missing and we are root, else said once.
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "corsbot: installing Debian's chromium for the browser tests"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	      || echo "corsbot: warning: could not install chromium; the browser tests will fail" >&2; \
	  else \
	    echo "corsbot: warning: no $(CHROMIUM): the browser tests need it (sudo apt-get install chromium chromium-driver)" >&2; \
	  fi; \
	fi

$(DUMP):
	@echo "corsbot: error: the shared Wikidata dump is missing at $(DUMP) (clone this repository next to the shared folder)" >&2
	@exit 2

# one snapshot per domain, rebuilt when the dump or the code that builds it changes: every recommender module
# `corsbot kb build` reaches from recommender/sparql.py, but errors.py and kbpack.py (kb.pack has its own rule)
# (tests/recommender/test_build_rule.py checks the list)
KB_BUILD := recommender/sparql.py recommender/sparql_client.py recommender/sparql_queries.py \
	recommender/sparql_store.py recommender/sparql_extract.py recommender/kbsnapshot.py recommender/kinds.py \
	recommender/schema.py recommender/schema_types.py recommender/roles.py
$(CORSBOT_HOME)/kb/%/kb.json.gz: $(BIN)/corsbot $(DUMP) $(KB_BUILD)
	$(BIN)/corsbot kb build --domain $*

# its load-ready kb.pack (kb build writes it too): repacked from kb.json.gz, seconds, when the pack format changes
$(CORSBOT_HOME)/kb/%/kb.pack: $(CORSBOT_HOME)/kb/%/kb.json.gz recommender/kbpack.py
	$(BIN)/corsbot kb pack --domain $*

# the entity linker's name index, rebuilt when the snapshot or the rules that build it change: the files of
# nlu.linking.index_build.INDEX_RULES, whose source is its fingerprint (tests/nlu/test_linking_index.py checks both agree)
INDEX_RULES := nlu/linking/index_build.py nlu/linking/short_forms.py nlu/linking/tokens.py nlu/linking/values.py nlu/linking/words.py \
	nlu/name_index.py nlu/textnorm.py
$(CORSBOT_HOME)/kb/%/names.pack: $(CORSBOT_HOME)/kb/%/kb.pack $(INDEX_RULES)
	$(BIN)/corsbot kb index --domain $*
	touch $@  # kb index keeps an index that is up to date without rewriting it

kb: $(SNAPSHOTS)

# the intent model of the tests on real data (the conversations): trained without its CV figure where it is
# missing or its recipe changed (`make model` retrains it with the figure)
INTENT_RECIPE := nlu/intent_config.cfg nlu/intent_templates.json nlu/augment.py nlu/intents.py nlu/intent_data.py \
	nlu/intent_features.py nlu/intent_bow.py nlu/intent_gate.py $(wildcard nlu/wording/*.toml)
MODEL_CARD := $(CORSBOT_HOME)/models/intent/card.json
$(MODEL_CARD): $(BIN)/corsbot $(INTENT_RECIPE)
	$(BIN)/corsbot nlu train --promote --folds 0

model: setup
	$(BIN)/corsbot nlu train --promote

# the dialogue-act classifier and the hedge reader, fitted here and stored so that a start loads them (numpy only)
# instead of importing scikit-learn and fitting them; refitted when their training data or recipe changes: the files
# of nlu.acts.RECIPE and nlu.opinion_hedge.RECIPE, whose content is their fingerprint (tests/nlu/test_text_classifier.py
# checks both agree). A missing or stale one is fitted at the bot's first use of it (a second or two, said once).
ACTS_RECIPE := nlu/wording/acts/train.toml nlu/acts.py nlu/act_noise.py nlu/text_classifier.py
HEDGE_RECIPE := nlu/opinion_data/hedge_examples.toml nlu/opinion_hedge.py nlu/sentiment_lexicon.py nlu/text_classifier.py
CLASSIFIERS := $(CORSBOT_HOME)/models/acts/classifier.npz $(CORSBOT_HOME)/models/hedge/classifier.npz
$(CORSBOT_HOME)/models/acts/classifier.npz: $(BIN)/corsbot $(ACTS_RECIPE)
	$(BIN)/corsbot nlu train-classifiers --only acts
	touch $@  # train-classifiers keeps a classifier that is up to date without rewriting it
$(CORSBOT_HOME)/models/hedge/classifier.npz: $(BIN)/corsbot $(HEDGE_RECIPE)
	$(BIN)/corsbot nlu train-classifiers --only hedge
	touch $@

classifiers: $(CLASSIFIERS)

replay: setup
	$(BIN)/corsbot replay $(SHARED)/converse/movie/messages_nl.json

# Fresh machine: venv + install, build the knowledge base from the shared Wikidata dump, train the
# intent model on the released messages and fit the text classifiers, then replay the movie NL study through
# the whole pipeline.
run: setup kb model classifiers replay

# The tests build their own fixtures; the snapshots and the intent model let the tests on real data run too
# (the conversations through the real dialog: without them they would be skipped).
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: setup lint $(SNAPSHOTS) $(MODEL_CARD) $(CLASSIFIERS)
	$(BIN)/python -m pytest -p no:cacheprovider

clean:
	rm -rf $(VENV) $(CORSBOT_HOME)
