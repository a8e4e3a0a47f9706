// Fills Node's compile cache (bin/compile-cache.js) with the modules the server and the
// importer load, so that their processes strip no types even when they may not write the cache
// (a service whose code is read-only to it). Run by `npm install`; a start that may write the
// cache needs none of this (`serve` fills it before it re-executes itself).
import module from 'node:module';
import { enableCompileCache } from '../bin/compile-cache.js';

enableCompileCache();
await import('../src/cli/main.ts');
await import('../src/server/start.ts');
await import('../src/import/wordpress/run.ts');
module.flushCompileCache();
