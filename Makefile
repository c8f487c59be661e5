# The README's two commands: `make run` (set up everything, run the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export CORSBOT_HOME ?= $(CURDIR)/var

.PHONY: run test setup kb model replay clean

$(BIN)/corsbot: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/corsbot

kb: setup
	$(BIN)/corsbot kb build

model: setup
	$(BIN)/corsbot nlu train

replay: setup
	$(BIN)/corsbot replay ../shared/data/converse/movie/messages_nl.json

# Fresh machine: venv + install, build the knowledge base from the shared dump, train the intent
# model on the released messages, then replay the movie NL study through the whole pipeline.
run: setup kb model replay

test: setup
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) var
