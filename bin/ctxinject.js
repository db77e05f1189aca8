#!/usr/bin/env node
import("../dist/bundle/main.js").then((cli) => cli.run());
