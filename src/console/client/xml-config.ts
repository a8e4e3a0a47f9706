// The custom XML configuration in the browser: a problem's link selects its line in the text
// field (without the script it leads to the numbered line below the list).

/** Start and end offsets of line `n` (1-based) of `text`. */
function lineRange(text: string, n: number): [number, number] {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) break;
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end < 0 ? text.length : end];
}

export function init(): void {
  const area = document.getElementById('xml-content') as HTMLTextAreaElement | null;
  if (!area) return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.xml-issue-list a[data-line]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const [start, end] = lineRange(area.value, Number(link.dataset.line));
      area.focus();
      area.setSelectionRange(start, end);
      // Scroll the field so that the line is in view.
      const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20;
      area.scrollTop = Math.max(0, (area.value.slice(0, start).split('\n').length - 3) * lineHeight);
    });
  }
}
