#!/usr/bin/env bash
# Runs every test: unit, integration (real RocksDB, Ratis, HTTP on loopback) and cluster suites,
# then the quick fault-injection scenarios (scripts/fault-suite.sh --quick; docs/FAULTS.md).
# Arguments go to both Maven runs (e.g. -o for offline).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B verify "$@"
bash scripts/fault-suite.sh --quick "$@"
