#!/usr/bin/env bash
# Regenerates the screenshots of clconv serve's page in docs/ (README.md and
# docs/EXPLAIN.md show them) by running the browser test against Debian's
# chromium (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./cmd/clconv -run '^TestServeBrowser$' -count=1 -v -args -screenshots "$PWD/docs" | grep -E 'wrote|PASS|FAIL|SKIP'
