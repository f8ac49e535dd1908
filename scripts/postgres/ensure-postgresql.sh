#!/usr/bin/env bash
# Makes sure PostgreSQL's server binaries (initdb, pg_ctl) are installed, for the throwaway
# clusters of the PostgreSQL tests (scripts/postgres/throwaway-cluster.mjs, decision 0084).
# Installs Debian's `postgresql` package when missing; no cluster is created or started by the
# package here (the tests make their own). Idempotent. Run by .ci/run before `npm test`.
set -euo pipefail

have_initdb() {
  [ -n "${APIKIT_PG_BIN:-}" ] && [ -x "$APIKIT_PG_BIN/initdb" ] && return 0
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && return 0
  command -v initdb >/dev/null 2>&1
}

if have_initdb; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgresql: installing Debian's postgresql package (one-time)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # The package's own cluster is not wanted: the tests make throwaway ones.
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.d/apikit.conf
  # debconf complains that apt-utils is missing; that is noise, not a failure.
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null 2> >(grep -v "^debconf: delaying" >&2)
  if have_initdb; then
    echo "ensure-postgresql: $(ls -d /usr/lib/postgresql/*/bin | tail -n 1) installed"
    exit 0
  fi
  echo "ensure-postgresql: apt-get finished but initdb is still missing" >&2
  exit 1
fi

cat >&2 <<MSG
ensure-postgresql: PostgreSQL's initdb not found, and this script can only install it as root on Debian.
Install it yourself (or set APIKIT_PG_BIN to the folder holding initdb and pg_ctl), then run the tests again:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends postgresql
MSG
exit 1
