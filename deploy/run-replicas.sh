#!/usr/bin/env bash
# A try-out of a school's server (docs/DEPLOY.md): PostgreSQL, N `streamlit run serve.py`
# replicas and nginx in front with sticky sessions and failover, all on loopback.
#   deploy/run-replicas.sh --help
#   deploy/run-replicas.sh --replicas 2 --port 8080 [--database-url postgresql+psycopg://...]
#   deploy/run-replicas.sh render --listen 80 127.0.0.1:8501 127.0.0.1:8502 > escoba.conf
# Everything it does is deploy/replicas.py's; this finds the project's Python.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" -m deploy.replicas "$@"
