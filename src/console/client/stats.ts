// The statistics page in the browser: the activity over time drawn by uPlot from the data the
// page carries (the same numbers as the table beside it, which stays reachable).
import uPlot from 'uplot';

function drawActivity(holder: HTMLElement): void {
  const series = JSON.parse(holder.dataset.series ?? '{}') as {
    dates: string[];
    counts: number[];
    label: string;
    dateLabel: string;
  };
  if (!series.dates?.length) return;
  const xs = series.dates.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
  const lang = document.body.dataset.lang ?? 'en';
  const day = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const width = () => Math.max(280, holder.clientWidth);
  const plot = new uPlot(
    {
      width: width(),
      height: 240,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
      legend: { show: true },
      cursor: { y: false },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        { stroke: '#3c434a', values: (_u, splits) => splits.map((s) => day.format(new Date(s * 1000))) },
        {
          stroke: '#3c434a',
          values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? s.toLocaleString(lang) : '')),
        },
      ],
      series: [
        { label: series.dateLabel, value: (_u, v) => (v === null ? '' : day.format(new Date(v * 1000))) },
        {
          label: series.label,
          stroke: '#135e96',
          fill: 'rgba(34, 113, 177, 0.35)',
          width: 1,
          paths: uPlot.paths.bars!({ size: [0.8, 40] }),
          points: { show: false },
        },
      ],
    },
    [xs, series.counts],
    holder,
  );
  new ResizeObserver(() => plot.setSize({ width: width(), height: 240 })).observe(holder);
  // The chart is there: its table is one click away rather than in the way.
  holder.closest('section')?.querySelector<HTMLDetailsElement>('details[data-chart-table]')?.removeAttribute('open');
}

export function init(): void {
  for (const holder of document.querySelectorAll<HTMLElement>('[data-chart="activity"]')) drawActivity(holder);
}
