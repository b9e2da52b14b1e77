#!/usr/bin/env bash
# The documentation site, as CI builds it: the docs extra installed, the reference pages
# generated from the code (and checked: a page left stale in git fails), then MkDocs in
# strict mode (a warning, such as a broken link or anchor, fails the build).
# Usage: bash tools/ci_docs.sh   (from any directory; writes the site to .site/)
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q -e ".[docs]"
python tools/gen_docs.py --check
python -m mkdocs build --strict --clean
