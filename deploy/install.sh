#!/bin/sh
# Install a release of the Escoba app into its own venv (docs/DEPLOY.md; the Dockerfile
# runs it too):
#   sudo deploy/install.sh dist/escoba-0.1.0-py3-none-any.whl   # a built wheel
#   sudo deploy/install.sh /opt/escoba/src                        # a source folder (a git tag)
# makes /opt/escoba/releases/<version>/ (a venv with the app and its dependencies from
# the package index) and points /opt/escoba/current at it, which the systemd units run.
# The replicas already running keep their release until they are restarted.
#   ESCOBA_PREFIX   where releases go (/opt/escoba)
#   PYTHON          the Python that makes the venv (python3; Debian 12: apt-get install python3-venv)
#   --no-link       install only; leave /opt/escoba/current as it is
set -eu

usage() { echo "usage: $0 WHEEL_OR_SOURCE_FOLDER [--no-link]" >&2; exit 2; }
[ $# -ge 1 ] || usage
SOURCE=$1
LINK=yes
[ "${2:-}" = "--no-link" ] && LINK=no
PREFIX=${ESCOBA_PREFIX:-/opt/escoba}
PYTHON=${PYTHON:-python3}

if [ -f "$SOURCE" ]; then
    case "$SOURCE" in
        *.whl) ;;
        *) echo "error: $SOURCE is not a wheel (.whl)" >&2; exit 2 ;;
    esac
    # escoba-0.2.0-py3-none-any.whl -> 0.2.0
    VERSION=$(basename "$SOURCE" | cut -d- -f2)
elif [ -f "$SOURCE/pyproject.toml" ]; then
    # The one version of the project (pyproject.toml reads it from there too).
    VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$SOURCE/escoba/__init__.py" | head -n 1)
    # A checkout between two tags gets its commit too: two builds of "0.2.0" never share a folder.
    if command -v git >/dev/null && git -C "$SOURCE" rev-parse --short HEAD >/dev/null 2>&1; then
        VERSION="$VERSION+$(git -C "$SOURCE" rev-parse --short HEAD)"
    fi
else
    echo "error: $SOURCE is neither a wheel nor a folder with pyproject.toml" >&2
    exit 2
fi
[ -n "$VERSION" ] || { echo "error: no version found in $SOURCE" >&2; exit 2; }

if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
    echo "error: $PYTHON cannot make a venv (Debian 12: sudo apt-get install python3-venv)" >&2
    exit 2
fi

TARGET="$PREFIX/releases/$VERSION"
if [ -e "$TARGET" ]; then
    echo "error: $TARGET exists already (remove it to install $VERSION again)" >&2
    exit 2
fi
mkdir -p "$PREFIX/releases"
echo "Installing $VERSION into $TARGET ..."
"$PYTHON" -m venv "$TARGET"
# A source folder is built from a clean copy: pip builds in place, and a build/ folder
# left by an earlier release would carry its files (one this release deleted) along.
FROM=$SOURCE
if [ -d "$SOURCE" ]; then
    FROM=$(mktemp -d)
    trap 'rm -rf "$FROM"' EXIT
    tar -C "$SOURCE" --exclude=./.git --exclude=./build --exclude='*.egg-info' \
        --exclude=./.venv --exclude=./dist -cf - . | tar -C "$FROM" -xf -
fi
"$TARGET/bin/pip" install --quiet --disable-pip-version-check "$FROM[app]" \
    || { rm -rf "$TARGET"; echo "error: the install failed (above); nothing changed" >&2; exit 1; }
# The release must run: its command, its app and its settings are there.
"$TARGET/bin/escoba" --version >/dev/null
for file in serve.py app.py app_pages .streamlit/config.toml; do
    [ -e "$TARGET/share/escoba/$file" ] || { echo "error: $TARGET lacks share/escoba/$file" >&2; exit 1; }
done

if [ "$LINK" = yes ]; then
    # Atomically: a replica restarting at this moment finds the old release or the new one.
    ln -sfn "releases/$VERSION" "$PREFIX/current.new"
    mv -T "$PREFIX/current.new" "$PREFIX/current"
    echo "Installed: $PREFIX/current -> releases/$VERSION"
else
    echo "Installed: $TARGET ($PREFIX/current unchanged)"
fi
