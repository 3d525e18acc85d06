#!/usr/bin/env node
'use strict'
// The `hunkloom` command (apply, mcp, demo; see `hunkloom --help`), run natively in this
// process through the addon: `npx hunkloom mcp --root .` needs nothing but the installed
// packages. Standard input and output are the process's own; nothing else runs meanwhile.

const native = require('../lib/native.js')

process.exitCode = native.__runCli(process.argv.slice(2))
