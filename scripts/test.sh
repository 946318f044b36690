#!/usr/bin/env bash
# Runs every test: unit, integration (real RocksDB, Ratis, HTTP on loopback), the console in
# headless Chromium (console-tests) and cluster suites, then the quick fault-injection scenarios
# (scripts/fault-suite.sh --quick; docs/FAULTS.md).
# Arguments go to both Maven runs (e.g. -o for offline).
set -euo pipefail
cd "$(dirname "$0")/.."

# The console test drives Debian's chromium through its chromium-driver. Install them when
# missing and we can (root, or passwordless sudo); otherwise say so and go on: that test then
# fails with the same advice, and every other test still runs.
ensure_browser() {
  if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
    return 0
  fi
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo="sudo"
    fi
  fi
  if ! command -v apt-get >/dev/null || [[ $(id -u) -ne 0 && -z $sudo ]]; then
    echo "test.sh: /usr/bin/chromium or /usr/bin/chromedriver is missing and cannot be installed here" \
      "(needs apt-get as root); install chromium and chromium-driver, or the console test will fail" >&2
    return 0
  fi
  echo "test.sh: installing chromium and chromium-driver for the console test:" \
    "${sudo:+sudo }apt-get update && ${sudo:+sudo }apt-get install -y chromium chromium-driver"
  if ! { $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q \
      && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        chromium chromium-driver; }; then
    echo "test.sh: installing chromium and chromium-driver failed (see above); the console test will fail" >&2
  fi
}

ensure_browser
mvn -B verify "$@"
bash scripts/fault-suite.sh --quick "$@"
