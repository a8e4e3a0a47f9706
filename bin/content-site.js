#!/usr/bin/env node
// The `content-site` command. npm/npx put node_modules/.bin first on PATH, so `node` here
// is the project's pinned Node 24, which runs the TypeScript sources directly.
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main();
