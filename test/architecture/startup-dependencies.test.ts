// A dependency only a rare request needs is loaded by that request, not with the server: the
// serving process carries all it loads for as long as it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import module from 'node:module';

/** Loaded when a report email is sent (about 3 MB of every serving process at rest, with Node's fetch it loads). */
const LOADED_ON_DEMAND = ['nodemailer'];

test("the server's modules load none of the dependencies kept for rare requests", async () => {
  const resolved = new Set<string>();
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      resolved.add(specifier);
      return nextResolve(specifier, context);
    },
  });
  await import('../../src/cli/main.ts');
  await import('../../src/server/start.ts');
  assert.ok(resolved.has('fastify'), 'the hook saw the packages the server loads');
  assert.deepEqual(
    LOADED_ON_DEMAND.filter((name) => resolved.has(name)),
    [],
  );
});
