// The console's script for every page (htmx aside): the copy buttons. Every page works without it.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (button === null) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (source === null || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(() => {
    const done = button.getAttribute('data-copied');
    if (done !== null) button.textContent = done;
  });
});

// Batches: the Print button of the cards page (the browser's own Print works as well).
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-print]') : null;
  if (button !== null) window.print();
});
