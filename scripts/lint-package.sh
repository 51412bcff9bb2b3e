#!/usr/bin/env bash
# `npm run lint:package`: the package as published, checked the way library authors do. One `npm pack` (its prepack
# builds dist/), then publint (package.json fields, exports, files; warnings count as errors) and Are the Types Wrong
# (every entry point's types resolve under node16 ESM and bundler resolution; ESM-only, so CommonJS `require` and the
# node10 resolution that ignores `exports` are out of scope: the esm-only profile).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm pack --silent --pack-destination "$out" >/dev/null
tarball=$(ls "$out"/toolgram-*.tgz)
npx publint run --strict "$tarball"
npx attw --profile esm-only --no-emoji "$tarball"
