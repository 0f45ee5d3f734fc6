# The app as a container image (docs/DEPLOY.md, "With containers"): the same wheel and
# the same deploy/install.sh as the runbook. compose.yaml runs it with PostgreSQL and nginx.
# NOT BUILT OR RUN on the project's machine (it has no container runtime): see the doc.
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN pip wheel --no-deps --disable-pip-version-check -w /dist .

FROM python:3.11-slim-bookworm
# pg_dump and pg_restore for `escoba backup`/`restore` (Debian 12's are PostgreSQL 15's,
# the server compose.yaml runs).
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY deploy/install.sh /usr/local/sbin/escoba-install
COPY --from=build /dist/ /tmp/dist/
RUN ESCOBA_PREFIX=/opt/escoba PYTHON=python3 sh /usr/local/sbin/escoba-install /tmp/dist/escoba-*.whl \
    && rm -rf /tmp/dist
RUN useradd --system --home-dir /var/lib/escoba --create-home --shell /usr/sbin/nologin escoba
USER escoba
WORKDIR /var/lib/escoba
ENV PATH=/opt/escoba/current/bin:$PATH
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s \
    CMD python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"
# On all of the container's addresses: nginx reaches it over compose's network.
CMD ["escoba", "serve", "--address", "0.0.0.0", "--port", "8501"]
