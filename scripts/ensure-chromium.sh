#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser test
# (test/durability/docs-page.test.ts). Playwright's own browser download does not
# work on these machines, so the test drives the distribution's build through playwright-core.
# Idempotent: does nothing when Chromium is already there. Run by `npm test` (pretest).
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing Debian's chromium package (one-time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # debconf complains that apt-utils is missing; that is noise, not a failure.
  apt-get install -y -qq --no-install-recommends chromium >/dev/null 2> >(grep -v "^debconf: delaying" >&2)
  if [ -x "$CHROMIUM" ]; then
    echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed"
    exit 0
  fi
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi

cat >&2 <<MSG
ensure-chromium: $CHROMIUM not found, and this script can only install it as root on Debian.
Install it yourself, then run the tests again:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium
(The docs-page browser test drives that binary through playwright-core; it does not use
Playwright's own browser download.)
MSG
exit 1
