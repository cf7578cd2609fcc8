#!/usr/bin/env bash
# Packs agentcall, checks the tarball's types with @arethetypeswrong/cli, then runs every consumer project in
# .ci/consumers in parallel (each installs the tarball and its peers from the registry into a fresh folder,
# compiles without a cast and runs a loop against agentcall/testing). All installs share npm's cache.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$root"
began=$SECONDS
tarball="$work/$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "pack-check: packed $(basename "$tarball") ($(du -k "$tarball" | cut -f1) KiB)"
npx attw "$tarball"
echo "pack-check: pack and attw in $((SECONDS - began))s"

start=$SECONDS
declare -A pids
for dir in "$root"/.ci/consumers/*/; do
  name="$(basename "$dir")"
  (
    began=$SECONDS
    if bash "$root/.ci/consumers/run-consumer.sh" "$dir" "$tarball" "$work/$name" >"$work/$name.log" 2>&1; then
      echo "ok $((SECONDS - began))s" >"$work/$name.status"
    else
      echo "FAILED $((SECONDS - began))s" >"$work/$name.status"
      exit 1
    fi
  ) &
  pids[$name]=$!
done

failed=0
for name in $(printf '%s\n' "${!pids[@]}" | sort); do
  wait "${pids[$name]}" || failed=1
  echo "----- consumer $name: $(cat "$work/$name.status")"
  cat "$work/$name.log"
done
echo "pack-check: ${#pids[@]} consumers in $((SECONDS - start))s (in parallel)"
exit "$failed"
