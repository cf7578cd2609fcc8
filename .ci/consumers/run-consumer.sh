#!/usr/bin/env bash
# One consumer project, as a new user would set it up: copy it to an empty folder, install the packed agentcall
# with the packages in its `deps` file from the registry, compile it with its own tsconfig (projects whose
# tsconfig extends tsconfig.init.json get the installed TypeScript's `tsc --init` defaults), run it, and check
# that exactly one openai is installed. A project with a prepare.mjs runs it first, given the repository's root.
# Usage: run-consumer.sh <consumer dir> <agentcall tarball> <empty work dir>
set -euo pipefail
src="$1"
tarball="$2"
work="$3"

mkdir -p "$work"
cp -r "$src"/. "$work"/
# Sources the consumers share (../*.ts) sit beside each one's main.ts; a consumer compiles only what main.ts imports.
cp "$(dirname "$0")"/*.ts "$work"/
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$work"
# A project that brings in repository files (the samples) does so with its own prepare.mjs.
if [ -f prepare.mjs ]; then node prepare.mjs "$repo"; fi
read -r -a deps <deps
phase=$SECONDS
npm install --prefer-offline --no-audit --no-fund --loglevel=error "$tarball" "${deps[@]}"
echo "installed: $(npm ls --depth=0 --parseable --long 2>/dev/null | tail -n +2 | cut -d: -f2 | tr '\n' ' ')"

if grep -q '"./tsconfig.init.json"' tsconfig.json; then
  mkdir init
  (cd init && ../node_modules/.bin/tsc --init >/dev/null)
  mv init/tsconfig.json tsconfig.init.json
fi
echo "install: $((SECONDS - phase))s"
phase=$SECONDS
./node_modules/.bin/tsc -p tsconfig.json
echo "compile: $((SECONDS - phase))s"
phase=$SECONDS
node dist/main.js
echo "run: $((SECONDS - phase))s"

# `npm ls` marks every further mention of the same installed package as deduped: one path means one copy.
copies="$(npm ls openai --all --parseable | sort -u | grep -c .)"
npm ls openai --all
if [ "$copies" != 1 ]; then
  echo "error: $copies copies of openai installed" >&2
  exit 1
fi
