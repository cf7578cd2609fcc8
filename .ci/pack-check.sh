#!/usr/bin/env bash
# Packs agentcall, installs the tarball into a fresh project with its peer dependencies, compiles a small
# decorated-tool program against the published types, and runs it against the published scripted server.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$root"
tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "pack-check: packed $tarball ($(du -k "$work/$tarball" | cut -f1) KiB)"

mkdir -p "$work/consumer"
cp "$root/.ci/consumer/"* "$work/consumer/"
cd "$work/consumer"
# Versions come from the project's lockfile, so the check installs what CI just installed (from npm's cache).
pin() { node -p "require('$root/package-lock.json').packages['node_modules/$1'].version"; }
npm init -y >/dev/null
npm install --prefer-offline --no-audit --no-fund --loglevel=error \
  "$work/$tarball" \
  "reflect-metadata@$(pin reflect-metadata)" "class-validator@$(pin class-validator)" "class-transformer@$(pin class-transformer)" \
  "@nestjs/common@$(pin @nestjs/common)" "@nestjs/core@$(pin @nestjs/core)" "rxjs@$(pin rxjs)" \
  "typescript@$(pin typescript)" "@types/node@$(pin @types/node)"
npx tsc -p tsconfig.json
node dist/main.js
