// A translation job in the browser: a chosen XLIFF file is read into the upload form's text
// field before the form is sent (the page's form posts text; without this script the file's
// content is pasted there).

export function init(): void {
  const form = document.getElementById('job-upload') as HTMLFormElement | null;
  const input = document.getElementById('job-xliff-file') as HTMLInputElement | null;
  const area = document.getElementById('job-xliff-text') as HTMLTextAreaElement | null;
  if (!form || !input || !area) return;
  const state = form.querySelector<HTMLElement>('.save-state')!;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    state.textContent = form.dataset.reading ?? '';
    void file.text().then((content) => {
      area.value = content;
      state.textContent = '';
    });
  });
  form.addEventListener('submit', (event) => {
    const file = input.files?.[0];
    if (!file || area.value !== '') return;
    // The file was chosen and sent at once: read it first.
    event.preventDefault();
    void file.text().then((content) => {
      area.value = content;
      form.submit();
    });
  });
}
