#!/usr/bin/env node
// The `content-site` command. npm/npx put node_modules/.bin first on PATH, so `node` here
// is the project's pinned Node 24, which runs the TypeScript sources directly.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node's compile cache keeps the type-stripped sources (and V8's code for them) on disk: a
// process that finds every module there never loads Node's type stripper (swc compiled to
// WebAssembly, about 18 MB of the server's RSS) and starts sooner. It lives beside the
// project's packages, so only who may change the code may change it. NODE_COMPILE_CACHE names
// another folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Set in the environment too: the
// server's re-execution (src/server/v8-flags.ts) and its worker threads then use it from the start.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('../node_modules/.cache/content-site', import.meta.url));
module.enableCompileCache(process.env.NODE_COMPILE_CACHE);

const { main } = await import('../src/cli/main.ts');
process.exitCode = await main();
