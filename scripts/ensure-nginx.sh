#!/usr/bin/env bash
# Makes sure Debian's nginx is installed, for the test that runs docs/deploy.md's balancer
# configuration in front of two apikit instances (test/readme/deploy-nginx.test.ts, decision
# 0089). Only the binary is wanted: the package's own service is not started (no systemd here,
# and the test runs its own nginx with its own configuration on a free port). Idempotent.
set -euo pipefail

have_nginx() {
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1
}

if have_nginx; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-nginx: installing Debian's nginx package (one-time)..."
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d 101: the package's maintainer scripts must not start the stock server on :80.
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  status=0
  apt-get update -qq >/dev/null &&
    apt-get install -y -qq --no-install-recommends nginx >/dev/null 2> >(grep -v "^debconf: delaying" >&2) ||
    status=$?
  [ -n "$created_policy" ] && rm -f /usr/sbin/policy-rc.d
  if [ "$status" -eq 0 ] && have_nginx; then
    echo "ensure-nginx: $(/usr/sbin/nginx -v 2>&1) installed"
    exit 0
  fi
  echo "ensure-nginx: apt-get failed or nginx is still missing" >&2
  exit 1
fi

cat >&2 <<MSG
ensure-nginx: nginx not found, and this script can only install it as root on Debian.
Install it yourself, then run the test again:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends nginx
MSG
exit 1
