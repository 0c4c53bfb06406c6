// Keyboard stepping for the replay page: ← → (or j k) one step, Home / End the first and
// the last. The page itself is server-rendered from the engine's state; this only moves
// `?at=N`, which the page always shows in its [data-step] element.
const stepper = document.querySelector("[data-step]");
if (stepper) {
  const at = Number(stepper.dataset.step);
  const last = Number(stepper.dataset.last);
  const go = (n) => {
    const target = Math.min(Math.max(n, 1), last);
    if (target !== at) {
      const url = new URL(window.location.href);
      url.searchParams.set("at", String(target));
      window.location.assign(url.toString());
    }
  };
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement) return;
    const step = event.shiftKey ? 10 : 1;
    const moves = {
      ArrowLeft: at - step, ArrowRight: at + step, j: at + 1, k: at - 1, Home: 1, End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });
}
