#!/usr/bin/env bash
# Installs everything the project needs, from the npm registry and Debian's packages only.
# Idempotent: a second run changes nothing. Browsers are never downloaded by Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# Headless Chromium for the Allure render check (test/report/allure-render.test.ts): Debian's package,
# installed only when missing. Playwright's own browser download is never used.
if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi
