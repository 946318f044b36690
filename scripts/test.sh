#!/usr/bin/env bash
# Runs every test: unit, integration (real RocksDB, Ratis, HTTP on loopback) and cluster suites.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B verify "$@"
