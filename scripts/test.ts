// `npm test`: every test file under test/, on SQLite, and on PostgreSQL too when
// TEST_DATABASE_URL is set. Says clearly when the PostgreSQL runs were skipped.
import { spawnSync } from 'node:child_process';

const files = process.argv.slice(2);
if (!process.env.TEST_DATABASE_URL) {
  console.log('note: TEST_DATABASE_URL is not set — PostgreSQL tests are skipped; storage tests run on SQLite only.');
  console.log('      To include them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test');
}
const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=300000', ...(files.length ? files : ['test/**/*.test.ts'])],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
if (!process.env.TEST_DATABASE_URL) console.log('note: PostgreSQL tests were skipped (TEST_DATABASE_URL not set).');
process.exit(result.status ?? 1);
