import Database from 'better-sqlite3';
const db = new Database('/work/cold/sqlite.db');
db.exec('drop table if exists tmp_meta');
db.exec(
  "create virtual table tmp_meta using fts5(t, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')",
);
let t = performance.now();
db.exec(
  'insert into tmp_meta(rowid, t) select event_id, (select group_concat(lower(value), char(10)) from json_each(context)) from history_event_contexts',
);
console.log('fill', (performance.now() - t).toFixed(0), 'ms');
const time = (label, q) => {
  const t = performance.now();
  const r = db.prepare(q).all();
  console.log(label, JSON.stringify(r).slice(0, 60), (performance.now() - t).toFixed(0), 'ms');
};
for (const w of ['pricing', 'anna', 'events', 'deployment 600', '2.0', 'clara@example.org', 'bench'])
  time(w, `select count(*) from tmp_meta where tmp_meta match '"${w}"'`);
console.log(db.prepare("select sum(pgsize) s from dbstat where name like 'tmp_meta%'").get());
