# Two commands for a fresh machine with Python 3.11 (see README):
#   make run   install, migrate, load the demo data, start the site on SQLite
#   make test  install and run the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The front-end packages (package-lock.json), copied into the static files (docs/FRONTEND.md).
NODE_STAMP := node_modules/.installed
HOST ?= 127.0.0.1:8000
# Only for tests: the site refuses to start without a real key when DEBUG is off.
TEST_SECRET_KEY := test-only-secret-key-not-for-any-deployment-000000
# mypy --strict over the three apps, with the Django and DRF plugins (pyproject.toml); the
# pure modules among them import no Django (tests/engine/test_engine_purity.py).
TYPED := battles campaigns penance_site

.PHONY: install run serve test lint typecheck check bench clean

$(STAMP): requirements.txt
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json frontend/build.mjs
	npm ci --no-audit --no-fund --loglevel=error
	npm run --silent build
	touch $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

# The development .env (git-ignored) turns DEBUG on for every manage.py command, not only
# these; settings.py reads it for keys the environment does not set. Delete it to turn off.
.env:
	printf '# Development settings written by make run (git-ignored); see README.\nDJANGO_DEBUG=1\n' > .env

run: install .env
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver $(HOST)

# Production: gunicorn with WEB_CONCURRENCY uvicorn (ASGI) workers (default 4) on HOST, plus
# the Celery worker and beat when REDIS_URL is set (Procfile). ASGI lets every open battle
# page hold its live stream without holding a process or thread (battles/streams.py);
# with several workers or hosts, REDIS_URL carries the announcements between them. Settings come from the environment:
# DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS are required (DEBUG is off). The development
# .env is not read: production takes its settings from the environment alone.
serve: install
	PENANCE_ENV_FILE= $(BIN)/python manage.py migrate --noinput
	PENANCE_ENV_FILE= $(BIN)/python manage.py collectstatic --noinput
	PENANCE_ENV_FILE= HOST=$(HOST) $(BIN)/honcho -f Procfile start web $(if $(REDIS_URL),worker beat)

test: install
	PENANCE_ENV_FILE= DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-$(TEST_SECRET_KEY)} $(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	PENANCE_ENV_FILE= DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-$(TEST_SECRET_KEY)} $(BIN)/mypy --strict $(TYPED)

check: lint typecheck test

bench: install
	$(BIN)/python bench/append.py

clean:
	rm -rf $(VENV) node_modules penance_site/static/vendor .pytest_cache .mypy_cache .ruff_cache
