// A node:test reporter that writes one JSON line per skipped test or suite ({file, name, reason}),
// and the run's counts ({counts}), to its destination; scripts/test.ts reads them back for the
// closing summary of what was skipped and why. Used beside the spec reporter, which shows the run
// as usual.
interface TestEvent {
  type: string;
  data: { name?: string; file?: string; skip?: string | boolean; counts?: Record<string, number> };
}

export default async function* skipReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    const { skip, name, file } = event.data;
    if ((event.type === 'test:pass' || event.type === 'test:skip') && skip !== undefined && skip !== false) {
      yield `${JSON.stringify({ file: file ?? '', name: name ?? '', reason: skip === true ? '(no reason given)' : skip })}\n`;
    }
    // The summary of the whole run is the one without a file.
    if (event.type === 'test:summary' && event.data.file === undefined)
      yield `${JSON.stringify({ counts: event.data.counts })}\n`;
  }
}
