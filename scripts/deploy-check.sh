#!/usr/bin/env bash
# docs/deploy.md, proved: the cockpit runs as its own OS user; the developer's user (and every agent it starts) can
# neither read the data folder nor mint anything (login link, pairing, invite), even with the developer credential
# the owner hands it; that credential still works for the CLI. Needs root (it creates two users). Reuses the
# production build `npm test`'s e2e suite made (.next); builds once when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

if [ "$(id -u)" != 0 ]; then
  echo "!!! deploy-check SKIPPED: it must run as root (it creates the users 'cockpit-ci' and 'dev-ci'). CI runs it." >&2
  exit 0
fi

SERVICE=cockpit-ci
DEV=dev-ci
started=$(date +%s)
fail() {
  echo "deploy-check FAILED: $*" >&2
  [ -f "${LOG:-}" ] && sed 's/^/  server: /' "$LOG" >&2
  exit 1
}
step() { echo "deploy-check: $*"; }

id "$SERVICE" >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin "$SERVICE"
id "$DEV" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$DEV"
DEV_HOME=$(getent passwd "$DEV" | cut -d: -f6)
chmod 0755 "$DEV_HOME" # the service reads the developer's global agent settings (docs: an ACL does the same)

# The service user must reach the checkout. CI may clone under a 0700 home (/root): grant o+x on each folder above
# the checkout that lacks it for the length of the check, and take it back on exit.
OPENED=()
if ! runuser -u "$SERVICE" -- test -r "$ROOT/bin/cockpit.mjs"; then
  dir=$ROOT
  while [ "$dir" != / ]; do
    dir=$(dirname "$dir")
    if [ -z "$(find "$dir" -maxdepth 0 -perm -o+x)" ]; then
      chmod o+x "$dir" && OPENED+=("$dir")
    fi
  done
  step "opened ${OPENED[*]:-nothing} to $SERVICE (o+x) for the check"
fi
runuser -u "$SERVICE" -- test -r "$ROOT/bin/cockpit.mjs" ||
  fail "the user $SERVICE cannot read $ROOT even with o+x on every folder above it"
if [ ! -f "$ROOT/.next/BUILD_ID" ]; then
  step "no production build yet: building once"
  NEXT_TELEMETRY_DISABLED=1 npx next build >/dev/null
fi

DATA=$(mktemp -d /tmp/cockpit-deploy-data-XXXX)
PROJECT=$(mktemp -d /tmp/cockpit-deploy-project-XXXX)
LOG=$(mktemp /tmp/cockpit-deploy-log-XXXX) # root's, 0600: it holds the first login link
chown "$SERVICE:" "$DATA" && chmod 0700 "$DATA"
chown "$DEV:" "$PROJECT" && chmod 0755 "$PROJECT"
PORT=3390
while (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null; do PORT=$((PORT + 1)); done
URL="http://127.0.0.1:$PORT"

SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$DATA" "$PROJECT" "$LOG"
  for dir in "${OPENED[@]}"; do chmod o-x "$dir"; done
}
trap cleanup EXIT

# As the service user, exactly as docs/deploy.md's runuser recipe (HOME is the developer's, for global stores).
step "starting the cockpit as $SERVICE on port $PORT"
runuser -u "$SERVICE" -- env -i PATH="$PATH" COCKPIT_DATA="$DATA" HOME="$DEV_HOME" PORT="$PORT" \
  NEXT_TELEMETRY_DISABLED=1 node "$ROOT/bin/cockpit.mjs" start --no-build >"$LOG" 2>&1 &
SERVER_PID=$!
healthy() { node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$URL/api/health"; }
for _ in $(seq 1 120); do
  healthy && break
  kill -0 "$SERVER_PID" 2>/dev/null || fail "the server exited"
  sleep 0.5
done
healthy || fail "the server did not answer /api/health within 60 s"
for _ in $(seq 1 40); do [ -f "$DATA/developer-credential.json" ] && break; sleep 0.25; done

# Everything below "as the developer" runs as $DEV with nothing but PATH and HOME.
as_dev() { runuser -u "$DEV" -- env -i PATH="$PATH" HOME="$DEV_HOME" "$@"; }
# METHOD PATH [BEARER] [BODY] → the HTTP status of a request sent by the developer's user (node: no curl needed).
status_as_dev() {
  as_dev node -e '
    const [url, method, bearer, body] = process.argv.slice(1);
    // Same-origin, so a refusal is about who is asking, not the CSRF check.
    const headers = { "content-type": "application/json", origin: new URL(url).origin };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    fetch(url, { method, headers, body }).then((r) => process.stdout.write(String(r.status)), () => process.stdout.write("000"));
  ' "$URL$2" "$1" "${3:-}" "${4:-"{}"}"
}
expect_status() { # WANT WHAT METHOD PATH [BEARER] [BODY]
  local want=$1 what=$2 got
  shift 2
  got=$(status_as_dev "$@")
  [ "$got" = "$want" ] || fail "$what: expected HTTP $want, got $got"
  step "ok: $what → $got"
}

step "the data folder is the service's alone"
as_dev test -r "$DATA/local-credential.json" && fail "the developer can read local-credential.json"
as_dev ls "$DATA" >/dev/null 2>&1 && fail "the developer can list the data folder"
as_dev cat "$DATA/developer-credential.json" >/dev/null 2>&1 && fail "the developer can read developer-credential.json"
step "ok: the developer cannot list the data folder or read a credential in it"

step "without a credential the developer mints nothing"
as_dev env COCKPIT_DATA="$DATA" node "$ROOT/bin/cockpit.mjs" login-link >/dev/null 2>&1 &&
  fail "cockpit login-link worked for the developer"
step "ok: cockpit login-link fails for the developer"
expect_status 401 "POST /api/local/login-link with no credential" POST /api/local/login-link
expect_status 401 "POST /api/v1/pair with no credential" POST /api/v1/pair
expect_status 401 "POST /api/v1/invites with no credential" POST /api/v1/invites "" '{"role":"admin","workspaces":"all"}'

step "the owner hands over the developer credential; it works for the CLI, and still mints nothing"
TOKEN=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).token)' \
  "$DATA/developer-credential.json")
dev_cli() { as_dev env COCKPIT_URL="$URL" COCKPIT_CLI_TOKEN="$TOKEN" node "$ROOT/bin/cockpit.mjs" "$@"; }
dev_cli workspace add "$PROJECT" >/dev/null || fail "the developer credential could not register a workspace"
step "ok: cockpit workspace add works with the developer credential"
dev_cli login-link >/dev/null 2>&1 && fail "cockpit login-link worked with the developer credential"
step "ok: cockpit login-link is refused with the developer credential"
expect_status 403 "POST /api/local/login-link with the developer credential" POST /api/local/login-link "$TOKEN"
expect_status 403 "POST /api/v1/pair with the developer credential" POST /api/v1/pair "$TOKEN"
expect_status 403 "POST /api/v1/invites with the developer credential" POST /api/v1/invites "$TOKEN" \
  '{"role":"admin","workspaces":"all"}'

step "the owner (the service user) still mints a login link"
runuser -u "$SERVICE" -- env -i PATH="$PATH" COCKPIT_DATA="$DATA" HOME="$DEV_HOME" \
  node "$ROOT/bin/cockpit.mjs" login-link | grep -q '/login?token=cpl_' || fail "the owner could not mint a login link"
step "ok: the owner's cockpit login-link works"

echo "deploy-check passed in $(($(date +%s) - started)) s"
