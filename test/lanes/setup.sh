#!/usr/bin/env sh
# The tools some suites use and no test installs: ripgrep (opencode's grep tool, in the opencode host suite) and
# Chromium (coverage --format html in a real browser, e2e/coverage.test.ts). Installed from the system's packages
# where apt-get can (CI, the slow lane's setup); a suite whose tool is still missing skips its test and says why.
for pair in rg:ripgrep chromium:chromium; do
  tool=${pair%%:*}; package=${pair#*:}
  command -v "$tool" >/dev/null 2>&1 && continue
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get install -y "$package" >/dev/null 2>&1 || echo "test setup: $package could not be installed (apt-get install -y $package)"
  else
    echo "test setup: $tool is missing; install $package for the suites that need it"
  fi
done
exit 0
